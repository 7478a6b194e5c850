#pragma once
// Checks on a model's joint tree shared by the URDF and SDF readers.
#include <vector>

#include "urdf/diagnostics.h"
#include "urdf/model.h"

namespace hydro {
namespace urdf {

// Every joint names existing, distinct parent and child links; no link has two parent joints; no
// cycles; one root (a link that is no joint's child), except that SDF joints may have the parent
// "world". Errors name the joint and its line. On success *parent_first lists link indices with
// every parent before its children, and *parent_joint[l] is the joint whose child is link l (-1
// for the root).
bool CheckJointTree(const Model& model, bool allow_world_parent, Diagnostics* diagnostics,
                    std::vector<int>* parent_first, std::vector<int>* parent_joint);

}  // namespace urdf
}  // namespace hydro
