// See README: declarations only; gloo itself lives inside libtorch_cpu.
#pragma once
#include "gloo/context.h"
