#include "hydro/contact_material.h"

#include <gtest/gtest.h>

#include <limits>

namespace hydro {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(ContactMaterialTest, FrictionIsTheHarmonicMeanOf003) {
  EXPECT_DOUBLE_EQ(CombineFriction(0.5, 0.5), 0.5);
  EXPECT_DOUBLE_EQ(CombineFriction(0.2, 0.8), 2 * 0.2 * 0.8 / 1.0);
  EXPECT_DOUBLE_EQ(CombineFriction(0.8, 0.2), CombineFriction(0.2, 0.8));
  EXPECT_DOUBLE_EQ(CombineFriction(0.0, 0.7), 0.0);
  EXPECT_DOUBLE_EQ(CombineFriction(0.0, 0.0), 0.0);
}

TEST(ContactMaterialTest, ModulusWeightedDissipation) {
  EXPECT_DOUBLE_EQ(CombineDissipationByModulus(1e6, 0.2, 1e6, 0.4), 0.3);
  // The softer side dominates: E_A ≪ E_B gives nearly d_A.
  EXPECT_NEAR(CombineDissipationByModulus(1e3, 0.2, 1e9, 5.0), 0.2, 1e-5);
  EXPECT_DOUBLE_EQ(CombineDissipationByModulus(kInf, 0.1, 1e5, 0.7), 0.7);
  EXPECT_DOUBLE_EQ(CombineDissipationByModulus(1e5, 0.7, kInf, 0.1), 0.7);
  EXPECT_DOUBLE_EQ(CombineDissipationByModulus(2e5, 0.3, 5e5, 0.9), CombineDissipationByModulus(5e5, 0.9, 2e5, 0.3));
}

TEST(ContactMaterialTest, ComplianceWeightedDissipationOf001Eq514) {
  // Equal compliances: χ = (χA + χB)/4.
  EXPECT_DOUBLE_EQ(CombineDissipationByCompliance(1.0, 0.1, 1e5, 3.0, 0.1, 1e5), 1.0);
  // A rigid side has zero compliance: χ = χ of the compliant side.
  EXPECT_DOUBLE_EQ(CombineDissipationByCompliance(2.0, 0.1, 1e5, 7.0, 0.3, kInf), 2.0);
  // Hand value: cA = 0.1/1e5 = 1e-6, cB = 0.2/1e5 = 2e-6 → (1·1 + 4·4)/9.
  EXPECT_NEAR(CombineDissipationByCompliance(1.0, 0.1, 1e5, 4.0, 0.2, 1e5), 17.0 / 9.0, 1e-14);
}

TEST(ContactMaterialTest, PointContactRulesOf003) {
  ContactMaterial M, N;
  M.hydroelastic_modulus_Pa = N.hydroelastic_modulus_Pa = 1e6;
  M.hunt_crossley_dissipation_s_per_m = 0.2;
  N.hunt_crossley_dissipation_s_per_m = 0.6;
  PointContactParameters p = CombinePointContact(M, N);
  EXPECT_DOUBLE_EQ(p.modulus_Pa, 5e5);  // 003: "If Eₘ = Eₙ, then E would be Eₘ/2"
  EXPECT_DOUBLE_EQ(p.squish_M, 0.5);
  EXPECT_DOUBLE_EQ(p.dissipation_s_per_m, 0.4);
  // Steel on foam: the foam takes all the deformation, the contact point sits at the steel's
  // deepest point.
  M.hydroelastic_modulus_Pa = kInf;
  N.hydroelastic_modulus_Pa = 1e5;
  p = CombinePointContact(M, N);
  EXPECT_DOUBLE_EQ(p.squish_M, 0.0);
  EXPECT_DOUBLE_EQ(p.squish_N, 1.0);
  EXPECT_DOUBLE_EQ(p.modulus_Pa, 1e5);
  EXPECT_DOUBLE_EQ(p.dissipation_s_per_m, 0.6);
  const Vector3 Mc(0, 0, -0.01), Nc(0, 0, 0.0);
  EXPECT_TRUE(PointContactLocation(p, Mc, Nc).isApprox(Mc));
  // Unequal moduli: E = EₘEₙ/(Eₘ + Eₙ), sₘ = Eₙ/(Eₘ + Eₙ).
  M.hydroelastic_modulus_Pa = 3e6;
  N.hydroelastic_modulus_Pa = 1e6;
  p = CombinePointContact(M, N);
  EXPECT_DOUBLE_EQ(p.modulus_Pa, 3e12 / 4e6);
  EXPECT_DOUBLE_EQ(p.squish_M, 0.25);
  EXPECT_DOUBLE_EQ(PointContactStiffness(p.modulus_Pa, 0.01), 2 * 7.5e5 * 0.01);
}

TEST(ContactMaterialTest, ValidateNamesOwnerAndValue) {
  ContactMaterial good;
  EXPECT_NO_THROW(good.Validate("ball"));
  ContactMaterial rigid;
  rigid.hydroelastic_modulus_Pa = kInf;
  EXPECT_NO_THROW(rigid.Validate("table"));
  EXPECT_TRUE(rigid.is_rigid());
  auto expect_error = [](ContactMaterial m, const std::string& fragment) {
    try {
      m.Validate("collision 'pad'");
      ADD_FAILURE() << "no error for " << fragment;
    } catch (const InvalidInput& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("collision 'pad'"), std::string::npos) << what;
      EXPECT_NE(what.find(fragment), std::string::npos) << what;
    }
  };
  ContactMaterial m;
  m.hydroelastic_modulus_Pa = 0;
  expect_error(m, "modulus");
  m = ContactMaterial();
  m.hydroelastic_modulus_Pa = std::nan("");
  expect_error(m, "modulus");
  m = ContactMaterial();
  m.hunt_crossley_dissipation_s_per_m = -1;
  expect_error(m, "dissipation");
  m = ContactMaterial();
  m.mu_dynamic = -0.1;
  expect_error(m, "dynamic friction");
  m = ContactMaterial();
  m.mu_static = 0.3;
  m.mu_dynamic = 0.5;
  expect_error(m, "less than dynamic");
}

}  // namespace
}  // namespace hydro
