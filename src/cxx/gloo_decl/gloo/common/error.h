// See README: declarations only.
#pragma once
