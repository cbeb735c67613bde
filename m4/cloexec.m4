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
dnl has.  Each ENTRY row's symbol is checked, read from the file when
dnl autoconf runs, so that config.h has a HAVE_ template for every row and
dnl a new row needs no line here.  One the C library lacks (glibc's
dnl _FORTIFY_SOURCE names, fcntl64, getpt, rcmd ... on musl) is left out of
dnl the library: CLOEXEC_ABSENT names it for the version script, `cloexec
dnl --list`'s check and the tests, and the wrappers that could not even
dnl compile without it test its HAVE_ macro.  cloexec_* rows are the
dnl library's own API, always there.  Run after the libraries are found: a
dnl symbol of -ldl or -lutil counts.
AC_DEFUN([CLOEXEC_ENTRY_POINTS], [
	m4_define([cloexec_rows], m4_esyscmd_s([sed -n \
		's/^ENTRY(\([A-Za-z_0-9]*\),.*/\1/p' src/entrypoints.def |
		grep -v '^cloexec_' | tr '\n' ' ']))
	m4_if(cloexec_rows, [],
		[m4_fatal([no ENTRY rows in src/entrypoints.def])])
	CLOEXEC_ABSENT=
	AC_CHECK_FUNCS(cloexec_rows, [],
		[CLOEXEC_ABSENT="$CLOEXEC_ABSENT $ac_func"])
	CLOEXEC_ABSENT=`echo $CLOEXEC_ABSENT`
	AC_MSG_CHECKING([which entry points the C library lacks])
	AC_MSG_RESULT([${CLOEXEC_ABSENT:-none}])
	AC_SUBST([CLOEXEC_ABSENT])
])

dnl CLOEXEC_SYMBOL_VERSIONS: the C library's files whose version table the
dnl library's is made from (src/symvers.sh): glibc's libc.so.6, and
dnl libutil.so.1 and libpthread.so.0, which held some of the names before
dnl glibc 2.34.  None on a C library without dlvsym (musl), which has no
dnl symbol versions either: its exports stay unversioned.
AC_DEFUN([CLOEXEC_SYMBOL_VERSIONS], [
	AC_CHECK_TOOL([READELF], [readelf], [no])
	CLOEXEC_LIBC_FILES=
	AS_IF([test "x$ac_cv_func_dlvsym" = xyes], [
		AS_IF([test "x$READELF" = xno],
			[AC_MSG_ERROR([readelf is needed for the symbol versions])])
		for cloexec_lib in libc.so.6 libutil.so.1 libpthread.so.0; do
			cloexec_path=`$CC $CFLAGS -print-file-name=$cloexec_lib`
			case $cloexec_path in
			/*) CLOEXEC_LIBC_FILES="$CLOEXEC_LIBC_FILES $cloexec_path" ;;
			esac
		done
		CLOEXEC_LIBC_FILES=`echo $CLOEXEC_LIBC_FILES`
		AS_CASE([$CLOEXEC_LIBC_FILES], [*libc.so.6*], [],
			[AC_MSG_ERROR([$CC -print-file-name=libc.so.6 finds no file])])
	])
	AC_MSG_CHECKING([whose symbol versions the library takes])
	AC_MSG_RESULT([${CLOEXEC_LIBC_FILES:-none}])
	AC_SUBST([CLOEXEC_LIBC_FILES])
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

dnl CLOEXEC_OWN_STARTFILES: link the library without the C compiler's
dnl start files (crti, crtbeginS, crtendS, crtn).  In C they add nothing
dnl the library uses but three weak undefined names (the transactional
dnl memory pair and __gmon_start__) and __cxa_finalize, each looked up in
dnl every object of every process at load, and a destructor that runs at
dnl exit: about 2,000 instructions a process start (doc/benchmarks.md).
dnl The one name they define that libc needs, __dso_handle (glibc's
dnl pthread_atfork passes it), src/core/dso.c defines; and the library
dnl is never unloaded (-z nodelete), which is what __cxa_finalize would
dnl have prepared for.  STARTFILES_LDFLAGS is empty where this does not
dnl link.
AC_DEFUN([CLOEXEC_OWN_STARTFILES], [
	AC_CACHE_CHECK([whether a shared library links without start files],
		[cloexec_cv_own_startfiles], [
		save_CFLAGS=$CFLAGS
		save_LDFLAGS=$LDFLAGS
		CFLAGS="$CFLAGS -fPIC"
		LDFLAGS="$LDFLAGS -shared -nostartfiles -Wl,-z,nodelete"
		AC_LINK_IFELSE([AC_LANG_PROGRAM([[
#include <pthread.h>
__attribute__((visibility("hidden"))) void *__dso_handle = &__dso_handle;
static void child(void) {}
__attribute__((constructor)) static void at_load(void)
{
	pthread_atfork(0, 0, child);
}
]], [])],
			[cloexec_cv_own_startfiles=yes],
			[cloexec_cv_own_startfiles=no])
		CFLAGS=$save_CFLAGS
		LDFLAGS=$save_LDFLAGS
	])
	STARTFILES_LDFLAGS=
	AS_IF([test "x$cloexec_cv_own_startfiles" = xyes],
		[STARTFILES_LDFLAGS="-Wc,-nostartfiles -Wl,-z,nodelete"])
	AC_SUBST([STARTFILES_LDFLAGS])
	AM_CONDITIONAL([OWN_STARTFILES],
		[test "x$cloexec_cv_own_startfiles" = xyes])
])
