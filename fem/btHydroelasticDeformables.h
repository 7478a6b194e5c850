#pragma once
// FEM deformable bodies (002) in a Bullet world, with Bullet's types only: the installed face of
// btDeformableBodies (fem/btDeformableBodies.h), which takes the core's FemBody and so Eigen.
// Part of the installed API (<hydrobullet/btHydroelastic.h>).
//
//   btHydroelasticDeformables deformables(&world);            // any btDiscreteDynamicsWorld
//   btHydroelasticDeformableMaterial rubber;
//   rubber.m_youngsModulus = 1e5;                             // Pa
//   int block = deformables.addBox("block", btVector3(0.05, 0.05, 0.05), pose, 0.02, rubber);
//   if (block < 0) fputs(deformables.getErrors(), stderr);
//   world.stepSimulation(dt, 0, dt);                           // steps the bodies too
//   btVector3 p = deformables.getVertexPosition(block, 0);
//
// Every stepSimulation() steps the bodies inside Bullet's internal steps, in contact with each
// other, with static and kinematic geometry, rigid bodies and multibody links (patch contact, as
// hydroSetHydroelastic's shapes). The object owns its bodies; keep it alive as long as the world
// steps, and do not install another internal pre-tick callback on the world. Bodies are named by
// the index add* returned. Failures are reported as Bullet code expects: the function returns -1
// or false, getErrors() says what and where, and no exception escapes.
#include <BulletDynamics/Dynamics/btDiscreteDynamicsWorld.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>
#include <LinearMath/btTransform.h>
#include <LinearMath/btVector3.h>

struct btHydroelasticDeformableMaterial {
  // An int underneath, so that any value a program stores is one the front can read and refuse
  // (without it a stored 7 is outside the enum's values, and reading it is undefined).
  enum Model : int {
    LINEAR,        // small-strain linear elasticity (not invariant to rotation)
    COROTATIONAL,  // linear corotational, rotation lagged from the previous step (002 §V-B)
    NEO_HOOKEAN,   // compressible Neo-Hookean, stepped by Newton's method
  };
  btScalar m_youngsModulus = 1e5;   // Pa
  btScalar m_poissonRatio = 0.3;    // in (−1, 0.5)
  btScalar m_density = 1000;        // kg/m³
  btScalar m_massDamping = 0;       // Rayleigh α (1/s): D = α·M + β·K
  btScalar m_stiffnessDamping = 0;  // Rayleigh β (s)
  Model m_model = COROTATIONAL;
};

class btHydroelasticDeformables {
 public:
  explicit btHydroelasticDeformables(btDiscreteDynamicsWorld* world);
  ~btHydroelasticDeformables();
  btHydroelasticDeformables(const btHydroelasticDeformables&) = delete;
  btHydroelasticDeformables& operator=(const btHydroelasticDeformables&) = delete;

  // Adds a body of linear tetrahedra: `vertices` in world at rest, `tetIndices` four per tet
  // (either orientation: a tet of negative volume is stored with its last two corners swapped, as
  // getTet then reports). `friction` combines with each Bullet object's friction. Returns the
  // body's index, or -1 when the mesh or material is invalid (getErrors names the tet, vertex or
  // value). The body drops the vertices no tet uses and keeps the others in their order: a mesh
  // whose tets use all its vertices keeps its numbering. Contact pressure grows with the depth below
  // the rest surface, so a tet whose four vertices are all on the surface carries none: give
  // every tet an interior vertex (a plain grid's rim tets have none, and its corners sink).
  int addTetMesh(const char* name, const btVector3* vertices, int numVertices, const int* tetIndices, int numTets,
                 const btHydroelasticDeformableMaterial& material, btScalar friction = 0.5);
  // A box of `halfExtents` centred at `pose`, meshed with edges of about `resolution` (m) in
  // nested shells, so that every tet has an interior vertex. Returns -1 (getErrors names the box)
  // for half extents or a resolution that are not finite and positive, and for a mesh that could
  // need more than MAX_BOX_TETS tets, counted before anything is meshed: with n_i =
  // ⌈2·halfExtents_i/resolution⌉ cells along each axis and L = ⌈min halfExtents/resolution⌉
  // shells, the mesh has at most 12·L·(n_x·n_y + n_y·n_z + n_z·n_x) tets — 144·L³ for a cube, so
  // a cube of L = 8 shells (at most 73,728 tets) is made and one of L = 9 (104,976) is refused.
  // The cap is about 25 times the largest body fem/README.md measures (4,116 tets, 44 ms a step,
  // most of it the sparse factorization, which grows faster than the tet count). Near it a body
  // is already far from interactive: a 1 m cube at 6.25 cm (67,584 tets) took 1.1 GB and 80–100 s
  // a step on the 2-core benchmark machine. A mistyped resolution (mm for m) would otherwise ask
  // for billions of tets and exhaust memory. addTetMesh takes a larger mesh as it is given.
  enum { MAX_BOX_TETS = 100000 };
  int addBox(const char* name, const btVector3& halfExtents, const btTransform& pose, btScalar resolution,
             const btHydroelasticDeformableMaterial& material, btScalar friction = 0.5);

  // Every error since the last clearErrors(), one a line.
  const char* getErrors() const;
  void clearErrors();

  int getNumBodies() const;
  const char* getBodyName(int body) const;
  int getNumVertices(int body) const;
  int getNumTets(int body) const;
  // The four vertex indices of a tet; false (and an error) for a bad index.
  bool getTet(int body, int tet, int vertexIndices[4]) const;
  // The current state, in world (a zero vector and an error for a bad index).
  btVector3 getVertexPosition(int body, int vertex) const;
  btVector3 getVertexVelocity(int body, int vertex) const;
  btVector3 getCenterOfMass(int body) const;
  btVector3 getLinearVelocity(int body) const;  // mass-weighted mean of the vertices'
  btScalar getMass(int body) const;

  // Sets every vertex's velocity to linear + angular × (p − centre of mass).
  bool setVelocity(int body, const btVector3& linear, const btVector3& angular);
  // Holds a vertex where it is now.
  bool fixVertex(int body, int vertex);
  // Welds a vertex to `rigidBody` where the vertex is now: an implicit spring of `stiffness` N/m
  // in the contact solve, between the vertex and that point of the body. The vertex follows a
  // kinematic body, lagging by the force it carries divided by `stiffness`; with a dynamic body the spring's
  // impulses are equal and opposite, so each pulls the other. A null or static body welds it to
  // the world (as fixVertex).
  bool attachVertex(int body, int vertex, btRigidBody* rigidBody, btScalar stiffness = 1e5);
  // One contact point per triangle of each contact polygon's centroid fan instead of one per
  // polygon: for coarse meshes whose faces would otherwise rest on a line of points and tip.
  bool setTriangleFanContact(int body, bool enable);
  // ε of the regularized friction (m/s, default 1e-4).
  bool setStictionSpeed(btScalar speed);

  // The last internal step: its contact points (all bodies) and whether the contact solve
  // converged.
  int getLastNumContacts() const;
  bool getLastSolveConverged() const;

 private:
  struct Impl;
  Impl* m_impl;
};
