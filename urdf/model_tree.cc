#include "urdf/model_tree.h"

#include <map>

namespace hydro {
namespace urdf {

bool CheckJointTree(const Model& model, bool allow_world_parent, Diagnostics* diagnostics,
                    std::vector<int>* parent_first, std::vector<int>* parent_joint) {
  const int errors_before = diagnostics->num_errors();
  std::map<std::string, int> link_index;
  for (int l = 0; l < static_cast<int>(model.links.size()); ++l) {
    const Link& link = model.links[l];
    if (!link_index.emplace(link.name, l).second)
      diagnostics->Error(link.where.file, link.where.line,
                         "model '" + model.name + "': a second link named '" + link.name + "'");
  }
  parent_joint->assign(model.links.size(), -1);
  std::vector<int> parent_link(model.links.size(), -1);
  std::map<std::string, int> joint_names;
  for (int j = 0; j < static_cast<int>(model.joints.size()); ++j) {
    const Joint& joint = model.joints[j];
    auto error = [&](const std::string& message) {
      diagnostics->Error(joint.where.file, joint.where.line, "joint '" + joint.name + "': " + message);
    };
    if (!joint_names.emplace(joint.name, j).second) error("a second joint with this name");
    const auto child = link_index.find(joint.child);
    const bool world_parent = allow_world_parent && joint.parent == "world";
    const auto parent = link_index.find(joint.parent);
    if (child == link_index.end()) {
      error("child link '" + joint.child + "' does not exist");
      continue;
    }
    if (!world_parent && parent == link_index.end()) {
      error("parent link '" + joint.parent + "' does not exist");
      continue;
    }
    if (joint.parent == joint.child) {
      error("a link cannot be its own parent");
      continue;
    }
    if ((*parent_joint)[child->second] >= 0) {
      error("link '" + joint.child + "' already has the parent joint '" +
            model.joints[(*parent_joint)[child->second]].name + "'");
      continue;
    }
    (*parent_joint)[child->second] = j;
    parent_link[child->second] = world_parent ? -1 : parent->second;
  }
  if (diagnostics->num_errors() > errors_before) return false;
  // Roots: links without a parent link. With SDF, links jointed to "world" count as roots too.
  std::vector<std::vector<int>> children(model.links.size());
  std::vector<int> roots;
  for (int l = 0; l < static_cast<int>(model.links.size()); ++l) {
    if (parent_link[l] < 0)
      roots.push_back(l);
    else
      children[parent_link[l]].push_back(l);
  }
  parent_first->clear();
  for (int root : roots) {
    std::vector<int> stack = {root};
    while (!stack.empty()) {
      const int l = stack.back();
      stack.pop_back();
      parent_first->push_back(l);
      for (int c : children[l]) stack.push_back(c);
    }
  }
  if (parent_first->size() != model.links.size()) {
    // Links never reached from a root sit on a cycle.
    std::vector<bool> reached(model.links.size(), false);
    for (int l : *parent_first) reached[l] = true;
    for (int l = 0; l < static_cast<int>(model.links.size()); ++l) {
      if (reached[l]) continue;
      const Joint& joint = model.joints[(*parent_joint)[l]];
      diagnostics->Error(
          joint.where.file, joint.where.line,
          "joint '" + joint.name + "': the joints form a cycle through link '" + model.links[l].name + "'");
      break;
    }
    return false;
  }
  if (!allow_world_parent && roots.size() > 1) {
    std::string names;
    for (int r : roots) names += (names.empty() ? "'" : ", '") + model.links[r].name + "'";
    diagnostics->Error(model.where.file, model.where.line,
                       "model '" + model.name + "': the joints leave more than one root link (" + names +
                           "); every link but one must be a joint's child");
    return false;
  }
  return true;
}

}  // namespace urdf
}  // namespace hydro
