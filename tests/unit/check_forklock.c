/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <check.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/forklock.h"
#include "core/policy.h"
#include "testlib.h"

static uint32_t room(void)
{
	return atomic_load(&forklock_room);
}

START_TEST(enter_exit_leaves_it_empty)
{
	forklock_enter(FORKLOCK_CREATE);
	ck_assert_uint_eq(room(), ROOM_CREATOR);
	forklock_exit();
	forklock_enter(FORKLOCK_SPAWN);
	ck_assert_uint_eq(room(), ROOM_SPAWNER);
	forklock_exit();
	ck_assert_uint_eq(room(), 0);
}
END_TEST

/* A thread that holds one side; tells when it is in, leaves on request. */
struct holder {
	enum forklock_side side;
	pthread_t th;
	atomic_int in, leave, left;
};

static void *hold(void *arg)
{
	struct holder *h = arg;

	forklock_enter(h->side);
	atomic_store(&h->in, 1);
	while (!atomic_load(&h->leave))
		usleep(1000);
	atomic_store(&h->left, 1);
	forklock_exit();
	return NULL;
}

static void start_holder(struct holder *h, enum forklock_side side)
{
	h->side = side;
	atomic_store(&h->in, 0);
	atomic_store(&h->leave, 0);
	atomic_store(&h->left, 0);
	ck_assert_int_eq(pthread_create(&h->th, NULL, hold, h), 0);
}

static void wait_in(struct holder *h)
{
	while (!atomic_load(&h->in))
		usleep(1000);
}

static void *release_later(void *arg)
{
	usleep(100 * 1000);
	atomic_store(&((struct holder *)arg)->leave, 1);
	return NULL;
}

START_TEST(a_spawner_waits_for_creators)
{
	struct holder h;
	pthread_t th;

	start_holder(&h, FORKLOCK_CREATE);
	wait_in(&h);
	pthread_create(&th, NULL, release_later, &h);
	forklock_enter(FORKLOCK_SPAWN);
	ck_assert_int_eq(atomic_load(&h.left), 1);
	forklock_exit();
	pthread_join(h.th, NULL);
	pthread_join(th, NULL);
	ck_assert_uint_eq(room(), 0);
}
END_TEST

START_TEST(a_creator_waits_for_spawners)
{
	struct holder h;
	pthread_t th;

	start_holder(&h, FORKLOCK_SPAWN);
	wait_in(&h);
	pthread_create(&th, NULL, release_later, &h);
	forklock_enter(FORKLOCK_CREATE);
	ck_assert_int_eq(atomic_load(&h.left), 1);
	forklock_exit();
	pthread_join(h.th, NULL);
	pthread_join(th, NULL);
}
END_TEST

/* Neither side excludes itself: forks overlap, creators overlap. */
START_TEST(a_side_shares_with_itself)
{
	enum forklock_side side = _i ? FORKLOCK_SPAWN : FORKLOCK_CREATE;
	struct holder h;

	start_holder(&h, side);
	wait_in(&h);
	forklock_enter(side);
	ck_assert_int_eq(atomic_load(&h.left), 0);
	forklock_exit();
	atomic_store(&h.leave, 1);
	pthread_join(h.th, NULL);
}
END_TEST

static atomic_int stop;

static void *create_forever(void *unused)
{
	(void)unused;
	while (!atomic_load(&stop)) {
		forklock_enter(FORKLOCK_CREATE);
		forklock_exit();
	}
	return NULL;
}

/* A stream of creators on every core cannot keep a spawner out. */
START_TEST(spawners_are_not_starved)
{
	/* valgrind runs one thread at a time: same claim, fewer rounds */
	int rounds = tl_valgrind() ? 50 : 2000;
	pthread_t th[4];
	int i;

	for (i = 0; i < 4; i++)
		pthread_create(&th[i], NULL, create_forever, NULL);
	for (i = 0; i < rounds; i++) {
		forklock_enter(FORKLOCK_SPAWN);
		forklock_exit();
	}
	atomic_store(&stop, 1);
	for (i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	ck_assert_uint_eq(room(), 0);
}
END_TEST

/*
 * fork (through the pthread_atfork handlers the library registers) while
 * another thread holds the spawn side: the child has one thread and a
 * clean lock, and can create and fork again at once.
 */
START_TEST(the_child_starts_clean)
{
	struct holder h;
	int status;
	pid_t pid;

	start_holder(&h, FORKLOCK_SPAWN);
	wait_in(&h);
	pid = fork();
	if (pid == 0) {
		if (room() != 0)
			_exit(1);
		forklock_enter(FORKLOCK_CREATE);
		forklock_exit();
		pid = fork();
		if (pid == 0)
			_exit(room() == 0 ? 0 : 2);
		waitpid(pid, &status, 0);
		_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 3);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	atomic_store(&h.leave, 1);
	pthread_join(h.th, NULL);
	ck_assert_uint_eq(room(), 0);
}
END_TEST

static atomic_int handler_ran;

static void fork_in_handler(int sig)
{
	int status;
	pid_t pid;

	(void)sig;
	pid = fork();
	if (pid == 0) {
		/* Still inside the interrupted window, as this thread is. */
		_exit(room() == ROOM_CREATOR ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	atomic_store(&handler_ran, WIFEXITED(status) && !WEXITSTATUS(status));
}

static void create_in_handler(int sig)
{
	(void)sig;
	forklock_enter(FORKLOCK_CREATE);
	forklock_exit();
	atomic_store(&handler_ran, 1);
}

/* A handler on a thread inside the lock passes through: no deadlock. */
START_TEST(signal_handlers_do_not_deadlock)
{
	struct sigaction sa = { .sa_handler = _i ? fork_in_handler :
						   create_in_handler };
	enum forklock_side outer = _i ? FORKLOCK_CREATE : FORKLOCK_SPAWN;

	sigaction(SIGUSR1, &sa, NULL);
	forklock_enter(outer);
	raise(SIGUSR1);
	forklock_exit();
	ck_assert_int_eq(atomic_load(&handler_ran), 1);
	ck_assert_uint_eq(room(), 0);
}
END_TEST

/*
 * The word as the test build's switch leaves it (check_policy reads the
 * switch): set here, since this runner's forks have loaded the policy.
 */
START_TEST(test_switch_skips_creators_only)
{
	atomic_store(&policy_hot,
		     POLICY_LOADED | POLICY_NO_LOCK | FD_CLASS_DEFAULT);
	forklock_enter(FORKLOCK_CREATE);
	ck_assert_uint_eq(room(), 0);
	forklock_exit();
	forklock_enter(FORKLOCK_SPAWN);
	ck_assert_uint_eq(room(), ROOM_SPAWNER);
	forklock_exit();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("forklock");
	TCase *tc = tcase_create("forklock");

	tcase_add_test(tc, enter_exit_leaves_it_empty);
	tcase_add_test(tc, a_spawner_waits_for_creators);
	tcase_add_test(tc, a_creator_waits_for_spawners);
	tcase_add_loop_test(tc, a_side_shares_with_itself, 0, 2);
	tcase_add_test(tc, spawners_are_not_starved);
	tcase_add_test(tc, the_child_starts_clean);
	tcase_add_loop_test(tc, signal_handlers_do_not_deadlock, 0, 2);
	tcase_add_test(tc, test_switch_skips_creators_only);
	tcase_set_timeout(tc, 20);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
