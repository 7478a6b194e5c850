#include "plugin/btHydroelasticSolverSettings.h"

#include <algorithm>

void hydroConfigureSolverInfo(btContactSolverInfo& info, int minIterations) {
  info.m_splitImpulse = 0;
  info.m_solverMode &= ~(SOLVER_USE_2_FRICTION_DIRECTIONS | SOLVER_DISABLE_VELOCITY_DEPENDENT_FRICTION_DIRECTION);
  info.m_solverMode |= SOLVER_ENABLE_FRICTION_DIRECTION_CACHING;
  info.m_solverMode |= SOLVER_USE_WARMSTARTING | SOLVER_RANDMIZE_ORDER;
  info.m_warmstartingFactor = 1;
  info.m_numIterations = std::max(info.m_numIterations, minIterations);
}
