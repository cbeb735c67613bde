/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <sys/auxv.h>
#include <unistd.h>

#include "creds.h"
#include "export.h"
#include "fdtable.h"
#include "pid.h"

struct ids {
	uid_t uid[3]; /* real, effective, saved */
	gid_t gid[3];
};

/* Set by the first change a wrapper saw; until then, the auxv's. */
static struct ids known ZERO_DATA;
static bool known_set ZERO_DATA;

static bool ids_now(struct ids *now)
{
	return getresuid(&now->uid[0], &now->uid[1], &now->uid[2]) == 0 &&
	       getresgid(&now->gid[0], &now->gid[1], &now->gid[2]) == 0;
}

/*
 * The ids this image started with: execve() sets the saved ids to the
 * effective ones.
 */
static void ids_at_start(struct ids *start)
{
	start->uid[0] = (uid_t)getauxval(AT_UID);
	start->uid[1] = start->uid[2] = (uid_t)getauxval(AT_EUID);
	start->gid[0] = (gid_t)getauxval(AT_GID);
	start->gid[1] = start->gid[2] = (gid_t)getauxval(AT_EGID);
}

/*
 * A child that shares this memory (vfork) writes nothing: the table and
 * the ids are its parent's, and its own exec finds its ids changed.
 */
void creds_changed(void)
{
	struct ids now;

	if (pid_raw() != pid_own())
		return;
	fdtable_forget_forced();
	if (ids_now(&now)) {
		known = now;
		known_set = true;
	}
}

CHILD_PATH bool creds_unchanged(void)
{
	struct ids now, then;
	int i;

	if (!ids_now(&now))
		return false;
	if (known_set)
		then = known;
	else
		ids_at_start(&then);
	for (i = 0; i < 3; i++)
		if (now.uid[i] != then.uid[i] || now.gid[i] != then.gid[i])
			return false;
	return true;
}
