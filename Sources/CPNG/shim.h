#ifndef BLAZEKIT_CPNG_SHIM_H
#define BLAZEKIT_CPNG_SHIM_H
#include <png.h>
#endif
