/* The system SQLite (Debian builds it with SQLITE_ENABLE_PREUPDATE_HOOK, which the DataStore's
   change events read deleted rows' last values with; the macro makes sqlite3.h declare it). */
#ifndef SQLITE_ENABLE_PREUPDATE_HOOK
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#endif
#include <sqlite3.h>
