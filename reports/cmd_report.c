/* Placeholder for cmd_report until its module lands. */
#include <stdio.h>

#include "cmd.h"

int cmd_report(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "xrun: '%s' is not implemented yet\n", argv[0]);
	return 2;
}
