#ifndef BLAZEKIT_CTURBOJPEG_SHIM_H
#define BLAZEKIT_CTURBOJPEG_SHIM_H
#include <turbojpeg.h>
#endif
