#pragma once
// HydroBullet: pressure-field ("hydroelastic") patch contact for Bullet Physics. The one header a
// Bullet program includes, as it includes btBulletDynamicsCommon.h:
//
//   #include <hydrobullet/btHydroelastic.h>
//
//   btHydroelasticCollisionConfiguration configuration;  // was btDefaultCollisionConfiguration
//   btCollisionDispatcher dispatcher(&configuration);    // or btHydroelasticCollisionDispatcher:
//                                                        // pairs' contact on all cores
//   btHydroelasticConstraintSolver solver;                 // was btSequentialImpulseConstraintSolver
//   btHydroelasticProperties soft;
//   soft.m_hydroelasticModulus = 1e7;                      // Pa
//   hydroSetHydroelastic(&boxShape, soft);                 // the shapes that are compliant
//   btHydroelasticDeformables deformables(&world);         // FEM bodies stepped with the world
//
// These headers use Bullet's types only; link HydroBullet::HydroBullet (CMake) or
// `pkg-config hydrobullet-float64` against Bullet's double build, HydroBullet::HydroBulletFloat
// or `pkg-config hydrobullet` against its float build.
#include "adapters/btHydroelasticShapes.h"
#include "adapters/hydroelastic_properties.h"
#include "fem/btHydroelasticDeformables.h"
#include "plugin/btHydroelasticCollisionConfiguration.h"
#include "plugin/btHydroelasticCollisionDispatcher.h"
#include "plugin/btHydroelasticConstraintSolver.h"
#include "plugin/btHydroelasticContactQuery.h"
#include "plugin/btHydroelasticDebugDraw.h"
#include "plugin/btHydroelasticMultiBodyConstraintSolver.h"
#include "plugin/btHydroelasticSolverSettings.h"
#include "plugin/btHydroelasticThreads.h"
#include "plugin/btHydroelasticWorldState.h"
#include "urdf/btHydroelasticModelLoader.h"
