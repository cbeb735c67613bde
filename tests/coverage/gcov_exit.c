/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * make coverage's build only (tests/coverage/run.sh links it into every
 * program and library, with -Wl,--wrap=_exit,--wrap=_Exit): a process
 * that ends by _exit() writes its counts first, as exit() does.  Children
 * made by fork, vfork and clone end so (race_load's, the library's own);
 * without this, what they ran would count as run by no test.
 */
void __gcov_dump(void);
void __real__exit(int status) __attribute__((noreturn));
void __real__Exit(int status) __attribute__((noreturn));
void __wrap__exit(int status) __attribute__((noreturn));
void __wrap__Exit(int status) __attribute__((noreturn));

void __wrap__exit(int status)
{
	__gcov_dump();
	__real__exit(status);
}

void __wrap__Exit(int status)
{
	__gcov_dump();
	__real__Exit(status);
}
