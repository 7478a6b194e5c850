// The always-on invariant check: it throws InternalError naming where and what, in every build;
// the debug-only check is compiled out under NDEBUG. AddPolygon demands a polygon.
#include "hydro/check.h"

#include <gtest/gtest.h>

#include <string>

#include "hydro/contact_surface.h"

namespace hydro {
namespace {

TEST(CheckTest, DemandThrowsNamingFileLineConditionAndMessage) {
  const int two = 2;
  EXPECT_NO_THROW(HYDRO_DEMAND(two == 2, "never"));
  try {
    HYDRO_DEMAND(two == 3, "two is " + std::to_string(two));
    FAIL() << "HYDRO_DEMAND did not throw";
  } catch (const InternalError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("check_test.cc:"), std::string::npos) << what;
    EXPECT_NE(what.find("invariant 'two == 3' failed: two is 2"), std::string::npos) << what;
  }
}

TEST(CheckTest, AssertIsADemandInDebugBuildsOnly) {
  const bool never = false;
#if defined(NDEBUG) && !defined(HYDRO_DEBUG_CHECKS)
  EXPECT_NO_THROW(HYDRO_ASSERT(never));
#else
  EXPECT_THROW(HYDRO_ASSERT(never), InternalError);
#endif
}

TEST(CheckTest, APolygonNeedsThreeVertices) {
  ContactSurface surface;
  const Vector3 p_WV[2] = {Vector3::Zero(), Vector3::UnitX()};
  const double pressure[2] = {1, 1};
  EXPECT_THROW(surface.AddPolygon(p_WV, pressure, 2, Vector3::UnitZ(), 1, 1, 0, 0), InternalError);
  EXPECT_EQ(surface.num_polygons(), 0);
}

}  // namespace
}  // namespace hydro
