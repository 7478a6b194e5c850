# The installed package: one library, shared (versioned, with a SONAME) and static, with the
# public headers, a CMake package and a pkg-config file, named the way Debian names Bullet's two
# builds so that both precisions install side by side into one prefix:
#
#   double (HYDRO_BULLET_FLOAT64=ON)   libhydrobullet-float64.so / .a   hydrobullet-float64.pc   HydroBullet::HydroBullet
#   float  (HYDRO_BULLET_FLOAT64=OFF)  libhydrobullet.so / .a           hydrobullet.pc           HydroBullet::HydroBulletFloat
#
# The library holds every layer (core, adapters, plugin, loaders, FEM); the static internal
# libraries the tests link are built once and their objects reused here.
include(GNUInstallDirs)

set(HYDRO_LIBRARY_NAME hydrobullet${HYDRO_BULLET_SUFFIX})
set(HYDRO_LAYERS hydro hydro_adapters hydro_plugin hydro_urdf_model hydro_urdf hydro_fem hydro_fem_bullet)
set(HYDRO_LAYER_OBJECTS "")
foreach(layer ${HYDRO_LAYERS})
  list(APPEND HYDRO_LAYER_OBJECTS $<TARGET_OBJECTS:${layer}>)
endforeach()

add_library(hydrobullet_shared SHARED ${HYDRO_LAYER_OBJECTS})
add_library(hydrobullet_static STATIC ${HYDRO_LAYER_OBJECTS})
foreach(target hydrobullet_shared hydrobullet_static)
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ${HYDRO_LIBRARY_NAME})
  target_link_libraries(${target} PUBLIC PkgConfig::BULLET PRIVATE PkgConfig::TINYXML2 ${BULLET_WORLD_IMPORTER}
                        ${BULLET_FILE_LOADER} ${METIS_LIBRARY})
endforeach()
set_target_properties(hydrobullet_shared PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})
install(TARGETS hydrobullet_shared hydrobullet_static
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})

# Public headers: Bullet types only (Eigen and the core stay behind forward-declared types or an
# Impl). FEM bodies are reached through btHydroelasticDeformables, not fem/btDeformableBodies.h,
# whose FemBody would bring Eigen and twenty core and fem headers into the package.
# The umbrella header includes them by their paths in this tree, which the package puts on the
# include path as include/hydrobullet.
set(HYDRO_PUBLIC_HEADERS
    adapters/hydroelastic_properties.h
    plugin/btHydroelasticCollisionAlgorithm.h
    plugin/btHydroelasticCollisionConfiguration.h
    plugin/btHydroelasticCollisionDispatcher.h
    plugin/btHydroelasticConstraintSolver.h
    plugin/btHydroelasticContactQuery.h
    plugin/btHydroelasticDebugDraw.h
    plugin/btHydroelasticMultiBodyConstraintSolver.h
    adapters/btHydroelasticShapes.h
    fem/btHydroelasticDeformables.h
    plugin/btHydroelasticSolverSettings.h
    plugin/btHydroelasticThreads.h
    plugin/btHydroelasticWorldState.h
    urdf/btHydroelasticModelLoader.h)
foreach(header ${HYDRO_PUBLIC_HEADERS})
  get_filename_component(dir ${header} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/${header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hydrobullet/${dir})
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/plugin/btHydroelastic.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hydrobullet)

# pkg-config: Bullet's own module carries BT_USE_DOUBLE_PRECISION for the double build.
set(HYDRO_PC_NAME ${HYDRO_LIBRARY_NAME})
set(HYDRO_PC_BULLET bullet${HYDRO_BULLET_SUFFIX})
set(HYDRO_PC_PRIVATE_LIBS "-lBulletWorldImporter${HYDRO_BULLET_SUFFIX} -lBulletFileLoader${HYDRO_BULLET_SUFFIX} -lmetis")
# Relocatable: the prefix is found from where the .pc file is.
file(RELATIVE_PATH HYDRO_PC_TO_PREFIX ${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" HYDRO_PC_TO_PREFIX "${HYDRO_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/hydrobullet.pc.in ${PROJECT_BINARY_DIR}/${HYDRO_PC_NAME}.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/${HYDRO_PC_NAME}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The CMake package: one config file for both builds, and one fragment per build that defines
# its imported target if that build is installed.
if(HYDRO_BULLET_FLOAT64)
  set(HYDRO_CMAKE_TARGET HydroBullet)
else()
  set(HYDRO_CMAKE_TARGET HydroBulletFloat)
endif()
set(HYDRO_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/HydroBullet)
file(RELATIVE_PATH HYDRO_PACKAGE_TO_PREFIX ${CMAKE_INSTALL_PREFIX}/${HYDRO_PACKAGE_DIR} ${CMAKE_INSTALL_PREFIX})
set(HYDRO_SONAME lib${HYDRO_LIBRARY_NAME}.so.${PROJECT_VERSION_MAJOR})
configure_file(${PROJECT_SOURCE_DIR}/cmake/HydroBulletVariant.cmake.in
               ${PROJECT_BINARY_DIR}/HydroBullet-${HYDRO_CMAKE_TARGET}.cmake @ONLY)
configure_file(${PROJECT_SOURCE_DIR}/cmake/HydroBulletConfig.cmake.in ${PROJECT_BINARY_DIR}/HydroBulletConfig.cmake @ONLY)
include(CMakePackageConfigHelpers)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/HydroBulletConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/HydroBulletConfig.cmake ${PROJECT_BINARY_DIR}/HydroBulletConfigVersion.cmake
              ${PROJECT_BINARY_DIR}/HydroBullet-${HYDRO_CMAKE_TARGET}.cmake
        DESTINATION ${HYDRO_PACKAGE_DIR})
