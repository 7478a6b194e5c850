#include "urdf/bullet_file_probe.h"

#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <BulletCollision/CollisionDispatch/btDefaultCollisionConfiguration.h>
#include <BulletDynamics/Featherstone/btMultiBodyConstraintSolver.h>
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "urdf/multibody_world_importer.h"

namespace hydro {
namespace urdf {
namespace {

constexpr int kLoaded = 0, kRefused = 2;

// In the child: a crash ends it by the signal (not by a sanitizer's or test framework's handler,
// which would report the parent's test as failed), and nothing runs at exit.
[[noreturn]] void ReadInChild(std::vector<char> bytes) {
  for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM}) ::signal(signal, SIG_DFL);
  // A reader caught in a loop ends too: 5 s and a second per MB are far more than it needs, and
  // less than the fuzzer's 10 s per input (a damaged 20 kB file looped past it).
  ::alarm(5 + static_cast<unsigned>(bytes.size() >> 20));
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher(&configuration);
  btDbvtBroadphase broadphase;
  btMultiBodyConstraintSolver solver;
  btMultiBodyDynamicsWorld world(&dispatcher, &broadphase, &solver, &configuration);
  MultiBodyWorldImporter importer(&world);
  const bool loaded = importer.loadFileFromMemory(bytes.data(), static_cast<int>(bytes.size()));
  ::_exit(loaded ? kLoaded : kRefused);
}

}  // namespace

bool ProbeBulletFileInChild(const std::vector<char>& bytes, std::string* problem) {
  ::fflush(nullptr);  // the child must not write the parent's buffered output twice
  const pid_t child = ::fork();
  if (child < 0) {
    *problem = std::string("cannot start the process that checks the file: ") + std::strerror(errno);
    return false;
  }
  if (child == 0) ReadInChild(bytes);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) {
      *problem = std::string("lost the process that checks the file: ") + std::strerror(errno);
      return false;
    }
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == kLoaded) return true;
  if (WIFEXITED(status) && WEXITSTATUS(status) == kRefused)
    *problem = "Bullet's importer could not read the file (a damaged file, or a version it does not know)";
  else if (WIFSIGNALED(status))
    *problem = std::string("Bullet's importer crashed reading the file (") + ::strsignal(WTERMSIG(status)) +
               "): it is damaged";
  else
    *problem =
        "Bullet's importer failed reading the file (exit " + std::to_string(WEXITSTATUS(status)) + "): it is damaged";
  return false;
}

}  // namespace urdf
}  // namespace hydro
