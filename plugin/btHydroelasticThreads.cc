#include "plugin/btHydroelasticThreads.h"

#include "hydro/parallel_for.h"

void hydroSetContactThreads(int numThreads) { hydro::SetContactThreads(numThreads); }

int hydroGetContactThreads() { return hydro::ContactThreads(); }
