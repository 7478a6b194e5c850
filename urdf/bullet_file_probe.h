#pragma once
// Bullet's .bullet reader trusts what the file's structs hold (counts, pointers between chunks):
// a damaged file that passes the layout check (bullet_file_check.h) can still make it read wild
// memory (libFuzzer finds such files in seconds, in convertMultiBody and elsewhere). We cannot
// change Bullet's reader, so it first reads the file in a child process: if the child dies, the
// file is refused with a message instead of taking the caller's process with it.
#include <string>
#include <vector>

namespace hydro {
namespace urdf {

// True if Bullet's btMultiBodyWorldImporter reads `bytes` into a fresh world in a child process
// and returns; else false with why (it refused the file, or crashed on it). Linux (fork).
bool ProbeBulletFileInChild(const std::vector<char>& bytes, std::string* problem);

}  // namespace urdf
}  // namespace hydro
