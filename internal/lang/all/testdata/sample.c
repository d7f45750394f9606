#include <stdio.h>

/* A point. */
struct point {
    int x;
};

typedef struct point point_t;

/* Adds two numbers. */
int add(int a, int b) {
    return helper(a) + b;
}

static char *name(void) { return "x"; }
