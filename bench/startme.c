/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The smallest dynamically linked C program: its start is what is timed. */
int main(void)
{
	return 0;
}
