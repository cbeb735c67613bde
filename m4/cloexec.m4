dnl SPDX-License-Identifier: LGPL-2.1-or-later
dnl libcloexec's own configure checks.

dnl CLOEXEC_CC_STD: the code is gnu11.
AC_DEFUN([CLOEXEC_CC_STD], [
	AX_CLOEXEC_CFLAG([-std=gnu11], [CFLAGS="$CFLAGS -std=gnu11"],
		[AC_MSG_ERROR([the compiler does not accept -std=gnu11])])
])

dnl AX_CLOEXEC_CFLAG(FLAG, IF-OK, IF-NOT): does $CC accept FLAG?
AC_DEFUN([AX_CLOEXEC_CFLAG], [
	AS_VAR_PUSHDEF([cache], [cloexec_cv_cflag_$1])
	AC_CACHE_CHECK([whether $CC accepts $1], [cache], [
		save_CFLAGS=$CFLAGS
		CFLAGS="$CFLAGS $1 -Werror"
		AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
			[AS_VAR_SET([cache], [yes])],
			[AS_VAR_SET([cache], [no])])
		CFLAGS=$save_CFLAGS
	])
	AS_VAR_IF([cache], [yes], [$2], [$3])
	AS_VAR_POPDEF([cache])
])

dnl CLOEXEC_WARNINGS: WARN_CFLAGS, and --enable-werror (CI uses it).
AC_DEFUN([CLOEXEC_WARNINGS], [
	WARN_CFLAGS=
	for flag in -Wall -Wextra -Wshadow -Wpointer-arith -Wstrict-prototypes \
		-Wmissing-prototypes -Wno-unused-parameter -Wformat=2; do
		AX_CLOEXEC_CFLAG([$flag], [WARN_CFLAGS="$WARN_CFLAGS $flag"])
	done
	AC_ARG_ENABLE([werror],
		[AS_HELP_STRING([--enable-werror], [treat warnings as errors])],
		[], [enable_werror=no])
	AS_IF([test "x$enable_werror" = xyes],
		[WARN_CFLAGS="$WARN_CFLAGS -Werror"])
	AC_SUBST([WARN_CFLAGS])
])

dnl CLOEXEC_SANITIZERS: --enable-sanitizers builds everything with
dnl AddressSanitizer and UndefinedBehaviorSanitizer.
AC_DEFUN([CLOEXEC_SANITIZERS], [
	AC_ARG_ENABLE([sanitizers],
		[AS_HELP_STRING([--enable-sanitizers],
			[build with AddressSanitizer and UndefinedBehaviorSanitizer])],
		[], [enable_sanitizers=no])
	SAN_CFLAGS=
	SAN_LIB=
	AS_IF([test "x$enable_sanitizers" = xyes], [
		SAN_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
		AX_CLOEXEC_CFLAG([$SAN_CFLAGS], [],
			[AC_MSG_ERROR([$CC cannot build with $SAN_CFLAGS])])
		dnl A preloaded sanitized library needs the ASan runtime first.
		SAN_LIB=`$CC -print-file-name=libasan.so`
	])
	AC_SUBST([SAN_CFLAGS])
	AC_SUBST([SAN_LIB])
	AM_CONDITIONAL([SANITIZERS], [test "x$enable_sanitizers" = xyes])
])

dnl CLOEXEC_KERNEL_API: which flag-parameter interfaces the headers and
dnl the C library declare.  The library builds without them (compat.h
dnl supplies the kernel's values, and a libc without the function gets the
dnl raw system call), but it must know.
AC_DEFUN([CLOEXEC_KERNEL_API], [
	AC_CHECK_DECLS([O_CLOEXEC, F_DUPFD_CLOEXEC], [], [],
		[[#include <fcntl.h>]])
	AC_CHECK_DECLS([SOCK_CLOEXEC, SOCK_NONBLOCK, MSG_CMSG_CLOEXEC, accept4],
		[], [], [[#include <sys/socket.h>]])
	AC_CHECK_DECLS([pipe2, dup3], [], [], [[#include <unistd.h>]])
	AC_CHECK_DECLS([epoll_create1], [], [], [[#include <sys/epoll.h>]])
	AC_CHECK_FUNCS([accept4 pipe2 dup3 epoll_create1 secure_getenv])
	AC_CHECK_FUNCS([_Fork execveat])
	dnl 32-bit glibc (2.34 on): what a program built with _TIME_BITS=64
	dnl calls instead of fcntl, ioctl, recvmsg and recvmmsg.
	AC_CHECK_FUNCS([__fcntl_time64 __ioctl_time64 __recvmsg64 __recvmmsg64])
	dnl glibc only: the BSD remote-command calls.
	AC_CHECK_FUNCS([rcmd], [have_rcmd=yes], [have_rcmd=no])
	AS_IF([test "x$have_rcmd" = xyes],
		[AC_DEFINE([HAVE_RCMD], [1], [Define to 1 for rcmd and friends.])],
		[AC_DEFINE([HAVE_RCMD], [0])])
	AC_CHECK_HEADERS([sys/fanotify.h linux/futex.h])
	dnl ioctl's request: unsigned long in glibc, int in musl (POSIX).
	AC_CACHE_CHECK([the type of ioctl's request], [cloexec_cv_ioctl_req], [
		AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <sys/ioctl.h>
int ioctl(int, unsigned long, ...);]], [])],
			[cloexec_cv_ioctl_req="unsigned long"],
			[cloexec_cv_ioctl_req=int])
	])
	AC_DEFINE_UNQUOTED([IOCTL_REQUEST_TYPE], [$cloexec_cv_ioctl_req],
		[The type of ioctl's second argument.])
	AC_CACHE_CHECK([whether the sockaddr argument is a transparent union],
		[cloexec_cv_sockaddr_union], [
		AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <sys/socket.h>]],
			[[__SOCKADDR_ARG a = { 0 }; return a.__sockaddr__ != 0;]])],
			[cloexec_cv_sockaddr_union=yes],
			[cloexec_cv_sockaddr_union=no])
	])
	AS_IF([test "x$cloexec_cv_sockaddr_union" = xyes],
		[AC_DEFINE([HAVE_SOCKADDR_TRANSPARENT_UNION], [1],
			[Define to 1 if accept() takes a transparent union.])],
		[AC_DEFINE([HAVE_SOCKADDR_TRANSPARENT_UNION], [0])])
	AC_CACHE_CHECK([the type of recvmmsg's flags], [cloexec_cv_mmsg_flags], [
		AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <sys/socket.h>
int recvmmsg(int, struct mmsghdr *, unsigned int, int, struct timespec *);]],
			[])],
			[cloexec_cv_mmsg_flags=int],
			[cloexec_cv_mmsg_flags="unsigned int"])
	])
	AC_DEFINE_UNQUOTED([RECVMMSG_FLAGS_TYPE], [$cloexec_cv_mmsg_flags],
		[The type of recvmmsg's fourth argument: int in glibc, unsigned
		 in musl.])
	dnl A symbol version pinned for a slot: glibc's dlvsym.
	AC_CHECK_FUNCS([dlvsym])
	dnl forkpty's login_tty: in libc since glibc 2.34 and in musl,
	dnl in libutil before.
	AC_SEARCH_LIBS([login_tty], [util], [],
		[AC_MSG_ERROR([login_tty not found])])
])

dnl CLOEXEC_ENTRY_POINTS: which rows of src/entrypoints.def the C library
dnl has.  One the C library lacks (glibc's _FORTIFY_SOURCE names, fcntl64,
dnl getpt, rcmd ... on musl) is left out of the library: CLOEXEC_ABSENT
dnl names it for the version script, `cloexec --list`'s check and the tests,
dnl and the wrappers that could not even compile without it test the
dnl HAVE_ macro.  cloexec_* rows are the library's own API, always there.
dnl Run after the libraries are found: a symbol of -ldl or -lutil counts.
AC_DEFUN([CLOEXEC_ENTRY_POINTS], [
	AC_CHECK_FUNCS([__open_2 __open64_2 __openat_2 __openat64_2 \
		fcntl64 getpt])
	dnl glibc's exported internal names (musl has none), and the mount
	dnl API's calls (glibc 2.36, not musl 1.2.3).
	AC_CHECK_FUNCS([__open __open64 __dup2 __fcntl __pipe \
		open_tree fsopen fsmount])
	cloexec_rows=`sed -n 's/^ENTRY(\([[A-Za-z_0-9]]*\),.*/\1/p' \
		"$srcdir/src/entrypoints.def"`
	AS_IF([test -z "$cloexec_rows"],
		[AC_MSG_ERROR([no ENTRY rows in $srcdir/src/entrypoints.def])])
	CLOEXEC_ABSENT=
	for cloexec_sym in $cloexec_rows; do
		case $cloexec_sym in cloexec_*) continue ;; esac
		AC_CHECK_FUNC([$cloexec_sym], [],
			[CLOEXEC_ABSENT="$CLOEXEC_ABSENT $cloexec_sym"])
	done
	CLOEXEC_ABSENT=`echo $CLOEXEC_ABSENT`
	AC_MSG_CHECKING([which entry points the C library lacks])
	AC_MSG_RESULT([${CLOEXEC_ABSENT:-none}])
	AC_SUBST([CLOEXEC_ABSENT])
])

dnl CLOEXEC_TEST_KERNEL_HEADERS: the emulated old kernel of the tests
dnl (tests/lib/oldkernel.c) needs the kernel's uapi headers.  A compiler
dnl wrapper for another C library may see that library's headers only
dnl (Debian's musl-gcc): then the system's uapi headers come after them,
dnl for the test helpers alone (KERNEL_TEST_CPPFLAGS), never the library.
AC_DEFUN([CLOEXEC_TEST_KERNEL_HEADERS], [
	AC_CACHE_CHECK([for the kernel headers of the tests],
		[cloexec_cv_kernel_test_cppflags], [
		cloexec_cv_kernel_test_cppflags=no
		cloexec_multiarch=`$CC -print-multiarch 2>/dev/null`
		for cloexec_flags in "" \
			"-idirafter /usr/include${cloexec_multiarch:+ -idirafter /usr/include/$cloexec_multiarch}"
		do
			save_CPPFLAGS=$CPPFLAGS
			CPPFLAGS="$CPPFLAGS $cloexec_flags"
			AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>]],
				[[return SECCOMP_RET_USER_NOTIF != 0;]])],
				[cloexec_cv_kernel_test_cppflags=${cloexec_flags:-none needed}])
			CPPFLAGS=$save_CPPFLAGS
			test "x$cloexec_cv_kernel_test_cppflags" != xno && break
		done
	])
	KERNEL_TEST_CPPFLAGS=
	AS_CASE([$cloexec_cv_kernel_test_cppflags],
		[no], [AC_MSG_WARN([no kernel headers: the tests will not emulate the old kernel])],
		["none needed"], [],
		[KERNEL_TEST_CPPFLAGS=$cloexec_cv_kernel_test_cppflags])
	AS_IF([test "x$cloexec_cv_kernel_test_cppflags" != xno],
		[AC_DEFINE([HAVE_KERNEL_TEST_HEADERS], [1],
			[Define to 1 if the tests can include the kernel's seccomp headers.])])
	AC_SUBST([KERNEL_TEST_CPPFLAGS])
])

dnl CLOEXEC_HOST_RUNS: whether this machine executes what $CC makes, found
dnl by running one.  No for a cross build, and for a -m32 build where the
dnl kernel refuses 32-bit programs ("Exec format error"), as some do though
dnl they were built with IA32 emulation.  Then 'make check' and the make
dnl targets that run the build's programs skip, saying why, instead of
dnl failing (CI runs the unit tests of such a build under qemu-user).
AC_DEFUN([CLOEXEC_HOST_RUNS], [
	AC_CACHE_CHECK([whether this machine runs the programs $CC makes],
		[cloexec_cv_host_runs], [
		cloexec_cv_host_runs=no
		AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])],
			[AS_IF([./conftest$EXEEXT >&AS_MESSAGE_LOG_FD 2>&1],
				[cloexec_cv_host_runs=yes])])
	])
	AS_IF([test "x$cloexec_cv_host_runs" = xno],
		[AC_MSG_WARN([this machine cannot run the programs $CC makes: 'make check' will skip its tests])])
	AM_CONDITIONAL([HOST_RUNS], [test "x$cloexec_cv_host_runs" = xyes])
])
