/* The system SQLite (Debian builds it with SQLITE_ENABLE_PREUPDATE_HOOK, which the DataStore's
   change events read deleted rows' last values with; the macro makes sqlite3.h declare it). */
#ifndef SQLITE_ENABLE_PREUPDATE_HOOK
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#endif
#include <sqlite3.h>

/* `sqlite3_db_config` is variadic, which Swift cannot call: its form for the options that take
   one int and report the new setting (`SQLITE_DBCONFIG_DQS_DML`, ...), the report not asked for. */
static inline int modelgen_sqlite3_db_config_int(sqlite3 *db, int op, int value) {
  return sqlite3_db_config(db, op, value, (int *)0);
}
