/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --audit and --check: the program run with its tree's audit lines
 * gathered, then summarized (run.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "audit.h"
#include "logcopy.h"
#include "pending.h"
#include "run.h"
#include "status.h"
#include "summarize.h"

#include "core/report.h"
#include "core/sockdiag.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The temporary log's name, in TMPDIR as mktemp(1) has it, or /tmp. */
static void audit_log_name(char *buf, size_t size)
{
	const char *dir = getenv("TMPDIR");
	int n;

	if (!dir || !*dir)
		dir = "/tmp";
	n = snprintf(buf, size, "%s/cloexec-audit.XXXXXX", dir);
	if (n < 0 || (size_t)n >= size)
		snprintf(buf, size, "/tmp/cloexec-audit.XXXXXX");
}

/* The tree's fd goes at or above this, out of the way of the numbers
 * that shells and programs pick themselves (exec 3<file, dup2 onto 4). */
#define AUDIT_FD_MIN 100

/*
 * Open the log once, here, and hand it to the whole tree as an inherited
 * fd named in CLOEXEC_AUDIT_FD (report.h): unlike a path, it reaches the
 * programs after a privilege drop, in a private /tmp, a chroot or another
 * mount namespace.  --log FILE is created or emptied; the temporary log
 * is removed at once, so that nothing is left behind even if cloexec is
 * killed.  And the abstract socket, named in CLOEXEC_AUDIT_SOCKET, which
 * takes the lines of a program that lost the fd (a daemon's closefrom,
 * Python's close_fds): drain_socket adds them to the log.
 */
void open_audit(const char *keep_log, struct audit_run *run)
{
	char path[PATH_MAX], value[160];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	unsigned char bytes[16];
	uint32_t cookie[2];
	struct stat w, r;
	size_t i;
	int fd, n;

	if (keep_log) {
		fd = open(keep_log,
			  O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_NOFOLLOW |
				  O_NONBLOCK | O_NOCTTY,
			  0600);
		run->rfd = -1;
		if (fd >= 0)
			run->rfd = open(keep_log, O_RDONLY | O_NOFOLLOW |
					O_NONBLOCK | O_CLOEXEC);
	} else {
		audit_log_name(path, sizeof(path));
		run->rfd = mkostemp(path, O_CLOEXEC);
		fd = -1;
		if (run->rfd >= 0)
			fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW |
						O_NONBLOCK | O_NOCTTY);
		if (run->rfd >= 0)
			unlink(path);
	}
	/* Both the same regular file: not something swapped in between. */
	if (fd < 0 || run->rfd < 0 || fstat(fd, &w) || fstat(run->rfd, &r) ||
	    !S_ISREG(w.st_mode) || w.st_dev != r.st_dev || w.st_ino != r.st_ino)
		die(keep_log ? "--log: cannot open a regular file at"
			     : "cannot create the audit log in",
		    keep_log ? keep_log : path);
	run->wfd = fcntl(fd, F_DUPFD, AUDIT_FD_MIN);
	if (run->wfd < 0)
		run->wfd = fcntl(fd, F_DUPFD, 3);
	if (run->wfd < 0)
		die("cannot move the audit log's fd", NULL);
	close(fd);
	snprintf(value, sizeof(value), "%d:%llu:%llu", run->wfd,
		 (unsigned long long)w.st_dev, (unsigned long long)w.st_ino);
	if (setenv(REPORT_AUDIT_FD_ENV, value, 1))
		die("cannot set " REPORT_AUDIT_FD_ENV, NULL);
	/*
	 * A name of 128 random bits, not the kernel's autobind (five hex
	 * digits, free again once cloexec is gone): a process of the tree
	 * that outlives cloexec must not send its lines, which name files
	 * and peers, to some other program that got the same name since.
	 */
	if (getrandom(bytes, sizeof(bytes), 0) != (ssize_t)sizeof(bytes))
		die("cannot name the audit's socket", NULL);
	n = snprintf(value, sizeof(value), "cloexec-audit.");
	for (i = 0; i < sizeof(bytes); i++)
		n += snprintf(value + n, sizeof(value) - (size_t)n, "%02x",
			      bytes[i]);
	memcpy(sa.sun_path + 1, value, (size_t)n);
	run->sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
			   0);
	if (run->sock < 0 ||
	    bind(run->sock, (struct sockaddr *)&sa,
		 (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n)))
		die("cannot make the audit's socket", NULL);
	/*
	 * The name is public (/proc/net/unix lists it to every user); the
	 * token is not: it is in the environment of the tree's processes,
	 * which /proc shows only to their own user (and root).  A datagram
	 * without it is not from the tree, and is refused.
	 */
	if (getrandom(bytes, sizeof(bytes), 0) != (ssize_t)sizeof(bytes))
		die("cannot make the audit's token", NULL);
	for (i = 0; i < sizeof(bytes); i++)
		snprintf(run->token + 2 * i, 3, "%02x", bytes[i]);
	if (fstat(run->sock, &w))
		die("cannot stat the audit's socket", NULL);
	n += snprintf(value + n, sizeof(value) - (size_t)n, ":%s:%llu",
		      run->token, (unsigned long long)w.st_ino);
	/*
	 * And its cookie, which the kernel gives no other socket ever: the
	 * library sends only while the name leads to this very socket
	 * (core/sockdiag.h), not to one that got its inode number again.
	 */
	if (w.st_ino <= 0xffffffffu &&
	    sockdiag_unix_cookie((uint32_t)w.st_ino, cookie))
		snprintf(value + n, sizeof(value) - (size_t)n, ":%llu",
			 (unsigned long long)cookie[1] << 32 | cookie[0]);
	if (setenv(REPORT_AUDIT_SOCKET_ENV, value, 1))
		die("cannot set " REPORT_AUDIT_SOCKET_ENV, NULL);
}

/*
 * The lines received on the socket, appended to the log, where the
 * summary, and --summarize of a kept log, read them.  Anyone on the
 * machine (in this network namespace) may send to the socket: a datagram
 * is taken only if it starts with the tree's token and a newline, then
 * one whole line of the library's.  Any other is refused and counted
 * (run->refused), which makes the audit incomplete: a stranger can fail
 * the verdict, never add to it or crowd the tree's lines out unseen.
 * Returns how many could not be appended (a full disk).
 */
static int drain_socket(struct audit_run *run)
{
	static const char head[] = "{\"libcloexec\":1,";
	char buf[REPORT_AUDIT_TOKEN_LEN + 1 + REPORT_LINE_MAX + 1], *line;
	int unwritten = 0;
	ssize_t n;

	for (;;) {
		n = recv(run->sock, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (n <= REPORT_AUDIT_TOKEN_LEN ||
		    memcmp(buf, run->token, REPORT_AUDIT_TOKEN_LEN) ||
		    buf[REPORT_AUDIT_TOKEN_LEN] != '\n') {
			run->refused++;
			continue;
		}
		line = buf + REPORT_AUDIT_TOKEN_LEN + 1;
		n -= REPORT_AUDIT_TOKEN_LEN + 1;
		if ((size_t)n < sizeof(head) || (size_t)n > REPORT_LINE_MAX ||
		    line[n - 1] != '\n' || memchr(line, '\n', (size_t)n - 1) ||
		    memchr(line, '\0', (size_t)n) ||
		    strncmp(line, head, sizeof(head) - 1)) {
			run->refused++;
			continue;
		}
		if (write(run->wfd, line, (size_t)n) != n)
			unwritten++;
	}
	return unwritten;
}

/*
 * A program that a process of the tree was starting in place as the
 * audited one ended (a daemon, its launcher gone first) reports in its
 * own time (pending.h): its start is waited for while its process is
 * alive with the library mapped, 5 seconds at most; a process exec'd
 * without it mapped yet, or whose parent ended and that has not exec'd,
 * a second at most (a daemon that never execs, or execs a static
 * program, costs the audit that second).  The lines lost on the way, as
 * drain_socket counts them.
 */
static int wait_for_starts(struct audit_run *run, struct log_copy *copy,
			   pid_t program)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	struct pending p = { 0 };
	enum pending_what what;
	int lost = 0, i;

	for (i = 0; i < 250; i++) {
		lost += drain_socket(run);
		logcopy_take(copy);
		what = pending_starts(&p, copy->copy, copy->copied, program);
		if (what == PENDING_NONE || (what == PENDING_MAYBE && i >= 50))
			break;
		nanosleep(&tick, NULL);
	}
	pending_free(&p);
	return lost;
}

/* "; PROGRAM exited with status N", "; PROGRAM was killed by signal N" */
static void how_it_ended(const char *program, int status, char *buf,
			 size_t size)
{
	if (WIFSIGNALED(status))
		snprintf(buf, size, "; %s was killed by signal %d (%s)",
			 program, WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, size, "; %s exited with status %d", program,
			 WEXITSTATUS(status));
}

/*
 * The signals that stop a program from outside: ^C, ^\, a hangup, and
 * what docker stop, systemd and timeout(1) send.
 */
static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

/* The program, while it runs and has not been reaped; else 0. */
static volatile sig_atomic_t program_pid;

/*
 * Pass a signal that a process sent (kill(1), a supervisor: si_code
 * SI_USER, SI_QUEUE, SI_TKILL, all <= 0) on to the program, so that it
 * stops and cloexec can still summarize and clean up.  Not one the
 * kernel sent (SI_KERNEL): the terminal sends ^C, ^\ and a hangup to the
 * whole foreground process group, the program included, which would
 * then get it twice.
 */
static void forward(int sig, siginfo_t *info, void *context)
{
	int saved = errno;

	(void)context;
	if (program_pid > 0 && info->si_code <= 0)
		kill((pid_t)program_pid, sig);
	errno = saved;
}

/* SIGCHLD: only to end the wait in ppoll. */
static void woken(int sig)
{
	(void)sig;
}

/*
 * After the summary and the cleanup, end as the program did: killed by
 * the same signal, so that a shell or a supervisor sees what it would
 * have seen without cloexec (as env(1) gives, and timeout(1) does).  No
 * core file of cloexec's own for SIGQUIT or SIGSEGV: the program's is
 * the one that matters.
 */
static int end_like(int status)
{
	struct rlimit none = { 0, 0 };
	sigset_t set;
	int sig;

	if (!WIFSIGNALED(status))
		return WEXITSTATUS(status);
	sig = WTERMSIG(status);
	setrlimit(RLIMIT_CORE, &none);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	/* A signal that does not kill (SIGCHLD?): the shell's number. */
	return 128 + sig;
}

/*
 * The path execvp will run for name: as it is (made absolute) when it
 * has a slash, else the first executable file of that name in PATH; name
 * itself when there is none.  For the "exec" line: the summary looks for
 * a program that never reported by its path.
 */
static const char *program_path(const char *name, char *buf, size_t size)
{
	const char *p = getenv("PATH"), *end;

	if (strchr(name, '/'))
		return realpath(name, buf) ? buf : name;
	if (!p || !*p)
		p = "/usr/local/bin:/bin:/usr/bin";
	for (; *p; p = *end ? end + 1 : end) {
		int n;

		end = strchrnul(p, ':');
		n = snprintf(buf, size, "%.*s/%s", (int)(end - p), p, name);
		if (n > 0 && (size_t)n < size && buf[0] == '/' &&
		    !access(buf, X_OK))
			return buf;
	}
	return name;
}

/*
 * --audit and --check: run the program as a child, then read the audit
 * lines its tree wrote to the log and summarize them, grouped.  The exit
 * status is the program's, except that --check's verdict comes first: a
 * leak is leak_status even when the program failed too (the summary's
 * last line still gives the program's own status).
 *
 * The signals of forwarded[] go on to the program instead of stopping
 * cloexec, which still summarizes and removes its files once the program
 * is gone.  One the caller ignores (nohup, a background job's ^C) stays
 * ignored, by both.  They are blocked from before the fork until
 * program_pid is set, and again from when the program has ended until it
 * is reaped, so that no signal goes to a pid that is not the program's.
 */
int run_audited(char **argv, struct audit_run *run, bool check, int leak_status)
{
	struct sigaction act = { .sa_sigaction = forward,
				 .sa_flags = SA_SIGINFO | SA_RESTART };
	struct sigaction chld = { .sa_handler = woken }, old_chld;
	struct sigaction old[COUNT(forwarded)];
	sigset_t block, saved_mask, run_mask, wait_mask;
	siginfo_t info;
	struct audit_counts counts;
	char tail[PATH_MAX + 64], path[PATH_MAX];
	int status, lost = 0, verdict, go[2], read_fd;
	struct log_copy copy;
	size_t first_len;
	char *first;
	pid_t pid;
	size_t i;

	sigemptyset(&block);
	for (i = 0; i < COUNT(forwarded); i++)
		sigaddset(&block, forwarded[i]);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &saved_mask);
	sigdelset(&block, SIGCHLD);
	act.sa_mask = block;
	for (i = 0; i < COUNT(forwarded); i++) {
		sigaction(forwarded[i], NULL, &old[i]);
		if (old[i].sa_handler != SIG_IGN)
			sigaction(forwarded[i], &act, NULL);
	}
	/* A handler, even where the caller ignores it: else no waitid. */
	sigaction(SIGCHLD, &chld, &old_chld);
	run_mask = saved_mask;
	sigaddset(&run_mask, SIGCHLD);
	wait_mask = saved_mask;
	sigdelset(&wait_mask, SIGCHLD);
	/*
	 * The program's exec line is written here, and copied with
	 * cloexec's other lines before the program runs (it waits on go):
	 * a log truncated under the summary is seen shorter than that.
	 */
	program_path(argv[0], path, sizeof(path));
	if (pipe2(go, O_CLOEXEC))
		die("cannot make a pipe", NULL);
	/* Orphans of the tree come to cloexec: pending.h. */
	pending_adopt();
	pid = fork();
	if (pid < 0)
		die("cannot fork", NULL);
	if (pid == 0) {
		char c;

		for (i = 0; i < COUNT(forwarded); i++)
			sigaction(forwarded[i], &old[i], NULL);
		sigaction(SIGCHLD, &old_chld, NULL);
		sigprocmask(SIG_SETMASK, &saved_mask, NULL);
		close(go[1]);
		while (read(go[0], &c, 1) < 0 && errno == EINTR)
			;
		execvp(argv[0], argv);
		_exit(exec_failed(argv[0]));
	}
	program_pid = pid;
	close(go[0]);
	logcopy_open(&copy, run->rfd);
	first = audit_exec_line((long)pid, (long)getpid(), path, argv,
				&first_len);
	if (write(run->wfd, first, first_len) != (ssize_t)first_len)
		lost++;
	free(first);
	/* cloexec's own lines, copied before anything else can write */
	logcopy_take(&copy);
	close(go[1]);
	sigprocmask(SIG_SETMASK, &run_mask, NULL);
	/*
	 * Take the socket's lines while the program runs (its queue is
	 * short), until it has ended: SIGCHLD, blocked but during ppoll,
	 * ends the wait without a race.  Not reaped yet: until then the pid
	 * is the program's.
	 */
	for (;;) {
		struct pollfd in[2] = { { .fd = run->sock, .events = POLLIN },
					{ .fd = logcopy_fd(&copy),
					  .events = POLLIN } };
		/* without inotify, the log is looked at ten times a second */
		struct timespec tick = { 0, 100 * 1000 * 1000 };

		info.si_pid = 0;
		if (waitid(P_PID, (id_t)pid, &info,
			   WEXITED | WNOHANG | WNOWAIT) < 0) {
			if (errno == EINTR)
				continue;
			die("cannot wait for the program", NULL);
		}
		if (info.si_pid == pid)
			break;
		if (ppoll(in, 2, in[1].fd < 0 ? &tick : NULL, &wait_mask) > 0 &&
		    in[0].revents)
			lost += drain_socket(run);
		logcopy_take(&copy);
	}
	sigprocmask(SIG_BLOCK, &block, NULL);
	program_pid = 0;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("cannot wait for the program", NULL);
	lost += wait_for_starts(run, &copy, pid);
	lost += drain_socket(run);
	close(run->sock);
	read_fd = logcopy_finish(&copy);
	close(run->wfd);
	if (lost)
		fprintf(stderr, "cloexec: audit: INCOMPLETE, %d line%s could "
				"not be added to the log\n",
			lost, lost == 1 ? "" : "s");
	if (run->refused)
		fprintf(stderr,
			"cloexec: audit: INCOMPLETE, %d message%s to the "
			"audit's socket refused: not from the audited tree "
			"(no token); someone else wrote to it, and may have "
			"crowded out the tree's lines\n",
			run->refused, run->refused == 1 ? "" : "s");
	if (copy.cut)
		fprintf(stderr,
			"cloexec: audit: INCOMPLETE, the log was cut while the "
			"program ran (truncated, or written over): lines of "
			"the tree may be missing; the summary is of what "
			"cloexec read before\n");
	audit_summary_fd(new_audit(), read_fd, stderr, verbose, &counts);
	close(run->rfd);
	close_baseline();
	counts.lost += lost + run->refused + copy.cut;
	how_it_ended(argv[0], status, tail, sizeof(tail));
	verdict = say_end(stderr, &counts, check, leak_status, tail);
	return verdict ? verdict : end_like(status);
}
