#pragma once
// The check every input-validation test makes: the call throws InvalidInput, and its message says
// what was wrong.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "hydro/math.h"

namespace hydro {
namespace test {

// Expects `make` to throw InvalidInput with `fragment` in its message.
inline void ExpectInvalidInput(const std::function<void()>& make, const std::string& fragment) {
  try {
    make();
    ADD_FAILURE() << "no error; expected one mentioning " << fragment;
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

// The message of the InvalidInput `run` throws, or "no error" where it throws none.
inline std::string ErrorOf(const std::function<void()>& run) {
  try {
    run();
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace test
}  // namespace hydro
