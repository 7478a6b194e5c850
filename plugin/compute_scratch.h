#pragma once
// What a pair needs only while its contact is computed (btHydroelasticCollisionAlgorithm::
// ComputeContact): lent to it for that long by its world, one set for each pair computed at the
// same time (btHydroelasticCollisionDispatcher computes pairs side by side). Kept in every pair
// instead, a 512-body pile of soft meshes at 1e6 Pa held 1.4 GB of whole patches' points in its
// 9,400 pairs, 1,200 of them touching, to solve 4 MB. The world owns the sets, so nothing outlives
// it; a set keeps its buffers, so a step allocates nothing once they have grown.
#include <memory>
#include <mutex>
#include <vector>

#include "hydro/point_approximation.h"

namespace hydro {
namespace bullet {

struct ComputeScratch {
  // The points before the optional reduction (hydro/point_reduction.h), and which point each
  // joined (also written by a reuse of merged points for a speculative patch, SurfaceReuse::Reuse).
  std::vector<ContactPoint> all_points;
  std::vector<int> merged_into;
  std::vector<ContactPoint> reused;  // the points a kept surface gives, whole or reduced
  std::vector<double> merged_force;  // each merged point's force at the present poses
  // A speculative patch's points and their places on body1, while the surface at the present
  // poses is taken beside it (ComputeContact, when SupportFallsShort).
  std::vector<ContactPoint> ahead_points;
  std::vector<Vector3> ahead_points_on_B;
};

class ComputeScratchPool {
 public:
  // A set lent until the lease ends. The last one given back is lent first, so one thread
  // stepping a world takes the same set every time.
  class Lease {
   public:
    Lease(ComputeScratchPool* pool, std::unique_ptr<ComputeScratch> scratch)
        : pool_(pool), scratch_(std::move(scratch)) {}
    ~Lease() { pool_->GiveBack(std::move(scratch_)); }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ComputeScratch& operator*() const { return *scratch_; }

   private:
    ComputeScratchPool* pool_;
    std::unique_ptr<ComputeScratch> scratch_;
  };

  Lease Borrow() {
    std::unique_ptr<ComputeScratch> scratch;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (!free_.empty()) {
        scratch = std::move(free_.back());
        free_.pop_back();
      }
    }
    if (!scratch) scratch = std::make_unique<ComputeScratch>();  // more pairs at once than before
    return Lease(this, std::move(scratch));
  }

 private:
  void GiveBack(std::unique_ptr<ComputeScratch> scratch) {
    const std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(std::move(scratch));
  }

  std::mutex mutex_;
  std::vector<std::unique_ptr<ComputeScratch>> free_;
};

}  // namespace bullet
}  // namespace hydro
