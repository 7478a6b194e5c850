#pragma once
// How many threads patch contact computes contact surfaces on, the caller's included: process
// wide, for every world (hydro/parallel_for.h). A large surface (two compliant meshes, or a
// compliant and a rigid mesh, of 512 BVH nodes or more together) is clipped in pieces side by
// side; the surface, and so every result, is bit for bit the one-thread one. Default: the
// machine's hardware threads (at most 16); 1 keeps everything on the stepping thread.
void hydroSetContactThreads(int numThreads);
int hydroGetContactThreads();
