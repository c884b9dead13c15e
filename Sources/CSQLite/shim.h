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

#include <stdint.h>
#include <string.h>

/* The first 32 KiB region of the WAL index (the `-shm` file) that the main database of `db`
   has mapped itself (the VFS's xShmMap, never extending it), or NULL when there is none (not
   in WAL mode yet, or a VFS without shared memory). It stays mapped while `db` is open. Mapping
   through SQLite's own file, not a new descriptor: closing a descriptor of the `-shm` file would
   drop every POSIX lock this process holds on it. */
static inline const volatile void *modelgen_wal_index(sqlite3 *db) {
  sqlite3_file *file = 0;
  if (sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &file) != SQLITE_OK || !file
      || !file->pMethods || file->pMethods->iVersion < 2 || !file->pMethods->xShmMap)
    return 0;
  volatile void *region = 0;
  if (file->pMethods->xShmMap(file, 0, 32768, 0, &region) != SQLITE_OK) return 0;
  return region;
}

/* Reads the WAL-index header at `index` (modelgen_wal_index; its layout is SQLite's documented
   WAL-index format, https://www.sqlite.org/walformat.html, "The WAL-Index Header") as SQLite's
   readers do: the first
   of its two 48-byte copies, a memory barrier, the second (writers store the second first); when
   both are equal and initialised, copies it to `out` (six words: change counter, frame count,
   page count, checksums, salts) and returns 1, else (a writer is storing it) returns 0. Equal
   headers mean the same committed state: every commit increments the change counter. */
static inline int modelgen_wal_index_header(const volatile void *index, uint64_t out[6]) {
  const volatile uint64_t *words = (const volatile uint64_t *)index;
  uint64_t second[6];
  for (int i = 0; i < 6; i++) out[i] = words[i];
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  for (int i = 0; i < 6; i++) second[i] = words[6 + i];
  if (memcmp(out, second, sizeof second) != 0) return 0;
  return ((const uint8_t *)out)[12] != 0; /* isInit */
}
