/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include "export.h"
#include "pid.h"

static long own_pid STARTUP_DATA;
static long image_pid STARTUP_DATA;
static long parent_pid STARTUP_DATA;

static long note_own_pid(void)
{
	own_pid = pid_raw();
	image_pid = own_pid;
	return own_pid;
}

/*
 * Asked once at load, by whichever needs it first: the constructor, or a
 * policy load that another object's constructor set off before it.  Both
 * run before this image can have made a child.
 */
CHILD_PATH long pid_own(void)
{
	return own_pid ? own_pid : note_own_pid();
}

CHILD_PATH long pid_image(void)
{
	return image_pid;
}

CHILD_PATH long pid_parent(void)
{
	return parent_pid;
}

CHILD_PATH void pid_child(void)
{
	parent_pid = own_pid;
	own_pid = pid_raw();
}

/*
 * When a policy load came first (another object's constructor made an fd
 * through a wrapper), it asked already, in this process or in the one
 * this is a copy of, made between that load and this constructor, which
 * no fork handler saw.  The answer stands: a copy keeps its parent's pid,
 * and so takes itself for a process the image was not loaded into, the
 * cautious side of every check of it (forklock.c, exec.c).
 */
void pid_at_load(void)
{
	if (!image_pid)
		note_own_pid();
}
