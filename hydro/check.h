#pragma once
// The three tiers of checks (../STYLE.md; Drake's DRAKE_DEMAND / DRAKE_ASSERT / throw):
// - user input is validated where it enters, and refused with InvalidInput (hydro/math.h) naming
//   what was wrong and where;
// - HYDRO_DEMAND(condition, message): an invariant of our own code, checked in every build. When
//   it fails the code has a bug: it throws InternalError naming the file, the line, the condition
//   and the message (never exits: the program around the library decides);
// - HYDRO_ASSERT(condition): the same in debug builds only, for checks inside hot loops (and in
//   any build that defines HYDRO_DEBUG_CHECKS: the sanitizer build does, so CI runs them).
#include <stdexcept>
#include <string>

namespace hydro {

class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

namespace internal {
[[noreturn]] void FailDemand(const char* condition, const char* file, int line, const std::string& message);
}  // namespace internal

}  // namespace hydro

#define HYDRO_DEMAND(condition, message)                                                        \
  do {                                                                                          \
    if (!(condition)) ::hydro::internal::FailDemand(#condition, __FILE__, __LINE__, (message)); \
  } while (false)

#if defined(NDEBUG) && !defined(HYDRO_DEBUG_CHECKS)
// Not evaluated, but still compiled: the condition's names count as used.
#define HYDRO_ASSERT(condition)        \
  do {                                 \
    (void)sizeof((condition) ? 1 : 0); \
  } while (false)
#else
#define HYDRO_ASSERT(condition) HYDRO_DEMAND(condition, "debug check")
#endif
