#pragma once
// What the randomised derivative tests share: sampling a parameter uniformly in its exponent (over
// decades, as ipc-toolkit samples its barriers' stiffness) and central differences.
#include <Eigen/Core>
#include <Eigen/Geometry>

#include <cmath>
#include <random>

namespace hydro {
namespace fem {
namespace fd {

// 10^u with u uniform in [log10 lo, log10 hi].
inline double LogUniform(double lo, double hi, std::mt19937* rng) {
  std::uniform_real_distribution<double> exponent(std::log10(lo), std::log10(hi));
  return std::pow(10.0, exponent(*rng));
}

// A rotation uniform over SO(3): the unit quaternion of four normal samples (drawn in order).
inline Eigen::Matrix3d RandomRotation(std::mt19937* rng) {
  std::normal_distribution<double> normal;
  double q[4];
  for (double& c : q) c = normal(*rng);
  return Eigen::Quaterniond(q[0], q[1], q[2], q[3]).normalized().toRotationMatrix();
}

// The central-difference gradient of a scalar f at x: entry j = (f(x + h·e_j) − f(x − h·e_j)) / 2h.
template <typename Function>
Eigen::VectorXd CentralDifferenceGradient(const Function& f, const Eigen::VectorXd& x, double h) {
  Eigen::VectorXd gradient(x.size());
  for (int j = 0; j < x.size(); ++j) {
    Eigen::VectorXd x_plus = x, x_minus = x;
    x_plus[j] += h;
    x_minus[j] -= h;
    gradient[j] = (f(x_plus) - f(x_minus)) / (2 * h);
  }
  return gradient;
}

// The central-difference Jacobian of f at x: column j = (f(x + h·e_j) − f(x − h·e_j)) / 2h. Its
// error (and the gradient's) is O(h²·f''') plus the round-off of f over 2h, so h is chosen from the
// scale of x.
template <typename Function>
Eigen::MatrixXd CentralDifferenceJacobian(const Function& f, const Eigen::VectorXd& x, double h) {
  Eigen::MatrixXd J;
  for (int j = 0; j < x.size(); ++j) {
    Eigen::VectorXd x_plus = x, x_minus = x;
    x_plus[j] += h;
    x_minus[j] -= h;
    const Eigen::VectorXd column = (f(x_plus) - f(x_minus)) / (2 * h);
    if (j == 0) J.resize(column.size(), x.size());
    J.col(j) = column;
  }
  return J;
}

}  // namespace fd
}  // namespace fem
}  // namespace hydro
