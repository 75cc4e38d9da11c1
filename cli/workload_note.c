/*
 * workload_note.c - what a workload spec left to a default that changes the
 * answer, said on stderr by every command that runs a spec: the shape of a
 * 2-D or 3-D stencil (a box and a star of one halo differ by 36 points at
 * radius 3 in 2-D). Prints only; the spec's meaning is common/workload.c's.
 */
#include <stdio.h>

#include "cli/commands.h"

void cli_workload_shape_note(const trapeze_workload *w)
{
    if (w->dims < 2 || w->shape_given)
        return;
    int left[TRAPEZE_MAX_DIMS], right[TRAPEZE_MAX_DIMS];
    trapeze_workload_reach(w, left, right);
    trapeze_workload star = *w;
    star.star = 1;
    fprintf(stderr, "%s: no shape given: assumed a box, all %d points within the halo "
            "(shape = star reads the %d on the axes; shape can also list the offsets)\n",
            w->name, trapeze_workload_points(w, left, right, NULL, NULL),
            trapeze_workload_points(&star, left, right, NULL, NULL));
}
