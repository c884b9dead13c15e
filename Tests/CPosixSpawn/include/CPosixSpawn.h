// The two glibc posix_spawn file actions ChildProcessSupport needs, which Swift's Glibc module does
// not show: glibc declares them only under _GNU_SOURCE (spawn.h, `#ifdef __USE_GNU`), and the
// module is built without it. Linux only; on Apple platforms Darwin declares what ChildProcess uses.
#ifndef CPOSIXSPAWN_H
#define CPOSIXSPAWN_H

#if defined(__linux__)
#include <spawn.h>

/// posix_spawn_file_actions_addclosefrom_np(3) (glibc 2.34+): the child closes every descriptor
/// from `lowest` up before it executes the program. Returns 0 or an errno value.
int cposixspawn_addclosefrom(posix_spawn_file_actions_t *actions, int lowest);

/// posix_spawn_file_actions_addchdir_np(3) (glibc 2.29+): the child changes its working directory
/// to `path` (at that point of the file actions). Returns 0 or an errno value.
int cposixspawn_addchdir(posix_spawn_file_actions_t *actions, const char *path);
#endif

#endif
