#include "adapters/shape_pair_lookup.h"

#include <gtest/gtest.h>

#include <btBulletDynamicsCommon.h>

#include "plugin/pair_contact.h"
#include "test_world.h"

namespace hydro {
namespace bullet {
namespace {

// A registry of the test's own, so that the process-wide one's tags do not meet these.
class ShapePairLookupTest : public ::testing::Test {
 protected:
  ShapeRegistry registry;
  ShapePairLookup lookup{&registry};
  btBoxShape box{btVector3(0.1, 0.1, 0.1)};
  btSphereShape ball{0.05};
};

TEST_F(ShapePairLookupTest, ReadsWhatTheRegistrySaysOfThePair) {
  lookup.Update(&box, &ball);
  EXPECT_FALSE(lookup.compliant());  // untagged: rigid
  btHydroelasticProperties soft = test::Compliant(1e6);
  soft.m_maxPatchPoints = 8;
  registry.SetHydroelastic(&ball, soft);
  lookup.Update(&box, &ball);
  EXPECT_TRUE(lookup.compliant());
  EXPECT_EQ(lookup.max_patch_points(), 8);
  EXPECT_FALSE(lookup.geometry(0)->is_compliant());
  EXPECT_TRUE(lookup.geometry(1)->is_compliant());
  EXPECT_EQ(lookup.geometry(1)->modulus_Pa, 1e6);
  // Handed other shapes, it reads those.
  lookup.Update(&box, &box);
  EXPECT_FALSE(lookup.compliant());
  EXPECT_EQ(lookup.max_patch_points(), 0);
}

TEST_F(ShapePairLookupTest, KeepsTheGeometryWhileNothingChanges) {
  registry.SetHydroelastic(&box, test::Compliant(1e7));
  lookup.Update(&box, &ball);
  const ShapeGeometry* first = lookup.geometry(0).get();
  for (int step = 0; step < 3; ++step) {
    lookup.Update(&box, &ball);
    EXPECT_EQ(lookup.geometry(0).get(), first);
  }
  // The registry's own answer is the same object: the lookup only spares the lock.
  EXPECT_EQ(registry.Geometry(&box).get(), first);
}

TEST_F(ShapePairLookupTest, ReadsAgainWhenATagChanges) {
  registry.SetHydroelastic(&box, test::Compliant(1e7));
  lookup.Update(&box, &ball);
  ASSERT_EQ(lookup.geometry(0)->modulus_Pa, 1e7);
  registry.SetHydroelastic(&box, test::Compliant(1e9));
  lookup.Update(&box, &ball);
  EXPECT_EQ(lookup.geometry(0)->modulus_Pa, 1e9);
  // Another shape's tag changes the registry's version too: read again, the same answers.
  registry.SetHydroelastic(&ball, test::Compliant(1e5));
  lookup.Update(&box, &ball);
  EXPECT_EQ(lookup.geometry(0)->modulus_Pa, 1e9);
  EXPECT_EQ(lookup.geometry(1)->modulus_Pa, 1e5);
  registry.Remove(&box);
  registry.Remove(&ball);
  lookup.Update(&box, &ball);
  EXPECT_FALSE(lookup.compliant());
  EXPECT_FALSE(lookup.geometry(0)->is_compliant());
}

TEST_F(ShapePairLookupTest, BuildsAgainWhenTheShapeIsRescaled) {
  registry.SetHydroelastic(&box, test::Compliant(1e7));
  lookup.Update(&box, &ball);
  const double radius = CalcExtentRadius(*lookup.geometry(0));
  EXPECT_NEAR(radius, static_cast<double>(btScalar(0.1)) * std::sqrt(3.0), 1e-9);  // 0.1 as Bullet stores it
  // No tag changes: only the shape's fingerprint says it is another size now.
  box.setLocalScaling(btVector3(2, 2, 2));
  lookup.Update(&box, &ball);
  EXPECT_NEAR(CalcExtentRadius(*lookup.geometry(0)), 2 * radius, 1e-9);
}

}  // namespace
}  // namespace bullet
}  // namespace hydro
