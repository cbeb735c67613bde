/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Nothing: the cost of preloading any library at all. */
int libempty_placeholder;
