/* The few glibc interfaces newer than glibc 2.28 that the wheel's files use
 * (docs/install.md, "Which systems"), for systems whose glibc lacks them.
 *
 * Built twice by scripts/build-wheel.sh, against the old glibc of
 * scripts/fetch-glibc-sysroot.sh: as libtorchabi-glibc-compat.so, which
 * packaging/glibc_floor.py adds as a needed library to every shipped library
 * whose references it re-pointed here, and as a static archive linked into
 * the program. In a library, a reference re-pointed here is unversioned: the
 * dynamic linker binds it to the first definition in load order, which is
 * glibc's own wherever glibc has the function (the program and glibc are
 * loaded before any shipped library), and this one only where it does not.
 *
 * No system header is included: the declarations below are the old glibc's
 * ABI (x86-64), so that no header of the build machine's newer glibc can
 * redirect a call to a newer symbol. */

typedef unsigned long size_t;
typedef unsigned int uint32_t;
typedef unsigned int mode_t;
typedef unsigned long dev_t;
struct stat;

/* The interfaces glibc 2.28 exports for these (x86-64: _STAT_VER 1, _MKNOD_VER 0). */
extern int __xstat(int ver, const char *path, struct stat *buf);
extern int __fxstat(int ver, int fd, struct stat *buf);
extern int __lxstat(int ver, const char *path, struct stat *buf);
extern int __fxstatat(int ver, int dirfd, const char *path, struct stat *buf, int flags);
extern int __xmknod(int ver, const char *path, mode_t mode, dev_t *dev);
extern int __xmknodat(int ver, int dirfd, const char *path, mode_t mode, dev_t *dev);
extern long syscall(long number, ...);
extern int *__errno_location(void);
extern void abort(void);

#define EXPORT __attribute__((visibility("default")))
#define STAT_VER 1
#define EINTR 4
#define SYS_getrandom 318

/* glibc 2.33 made these real functions; before, the headers inlined calls to
 * the __x* ones (and libc_nonshared.a held copies). */
EXPORT int stat(const char *p, struct stat *b) { return __xstat(STAT_VER, p, b); }
EXPORT int stat64(const char *p, struct stat *b) { return __xstat(STAT_VER, p, b); }
EXPORT int fstat(int fd, struct stat *b) { return __fxstat(STAT_VER, fd, b); }
EXPORT int fstat64(int fd, struct stat *b) { return __fxstat(STAT_VER, fd, b); }
EXPORT int lstat(const char *p, struct stat *b) { return __lxstat(STAT_VER, p, b); }
EXPORT int lstat64(const char *p, struct stat *b) { return __lxstat(STAT_VER, p, b); }
EXPORT int fstatat(int d, const char *p, struct stat *b, int f) { return __fxstatat(STAT_VER, d, p, b, f); }
EXPORT int fstatat64(int d, const char *p, struct stat *b, int f) { return __fxstatat(STAT_VER, d, p, b, f); }
EXPORT int mknod(const char *p, mode_t m, dev_t d) { return __xmknod(0, p, m, &d); }
EXPORT int mknodat(int dir, const char *p, mode_t m, dev_t d) { return __xmknodat(0, dir, p, m, &d); }

/* glibc 2.36: the system call's wrapper (the sandbox of project mode makes
 * mounts read-only with it; Linux 5.12+, ENOSYS before, as glibc's). */
#define SYS_mount_setattr 442
EXPORT int mount_setattr(int dirfd, const char *path, unsigned int flags, void *attr, size_t size) {
  return (int)syscall(SYS_mount_setattr, dirfd, path, flags, attr, size);
}

/* glibc 2.32: whether the process has only one thread, so that libstdc++ may
 * skip atomic operations. 0 ("maybe not") is always correct, only slower. */
EXPORT char __libc_single_threaded = 0;

/* glibc 2.33: mallinfo with size_t fields. The old mallinfo's are int: the
 * figures (LLVM's -print-stats) wrap beyond 2 GiB, nothing else changes. */
struct mallinfo_old { int arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks, fordblks, keepcost; };
struct mallinfo2_new { size_t arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks, fordblks, keepcost; };
extern struct mallinfo_old mallinfo(void);
EXPORT struct mallinfo2_new mallinfo2(void) {
  struct mallinfo_old o = mallinfo();
  struct mallinfo2_new n = {(unsigned)o.arena, (unsigned)o.ordblks, (unsigned)o.smblks, (unsigned)o.hblks,
                            (unsigned)o.hblkhd, (unsigned)o.usmblks, (unsigned)o.fsmblks, (unsigned)o.uordblks,
                            (unsigned)o.fordblks, (unsigned)o.keepcost};
  return n;
}

/* glibc 2.36: random bytes from the kernel (getrandom(2), Linux 3.17+),
 * as glibc's own arc4random does; it aborts when the kernel cannot give them,
 * and so does this. */
EXPORT void arc4random_buf(void *buf, size_t n) {
  unsigned char *p = buf;
  while (n > 0) {
    long got = syscall(SYS_getrandom, p, n, 0);
    if (got < 0) {
      if (*__errno_location() == EINTR) continue;
      abort();
    }
    p += got;
    n -= (size_t)got;
  }
}
EXPORT uint32_t arc4random(void) {
  uint32_t r;
  arc4random_buf(&r, sizeof r);
  return r;
}
EXPORT uint32_t arc4random_uniform(uint32_t bound) {
  if (bound < 2) return 0;
  /* Rejection sampling: values below 2^32 mod bound would make some results likelier. */
  uint32_t min = (uint32_t)(-bound) % bound, r;
  do r = arc4random(); while (r < min);
  return r % bound;
}
