/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The running image's own arguments, as it was started: for the rows
 * that read what a program names for its children (handoff.def's
 * HANDOFF_CHILD).  glibc gives them to the library's constructor; musl
 * gives constructors nothing, and there they are not known (NULL).
 */
#ifndef CLOEXEC_IMAGE_H
#define CLOEXEC_IMAGE_H

/* argv as the image got it (the program may have changed it), or NULL. */
char *const *image_argv(void) __attribute__((visibility("hidden")));

#endif /* CLOEXEC_IMAGE_H */
