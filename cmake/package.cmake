# package.cmake: the Debian package of tmapd for build farms (docs/service.md, "The Debian package").
#
#   cpack --config build/CPackConfig.cmake      ->  build/package/tmapd_<version>-1_<arch>.deb
#
# It holds the runtime and service components (cmake/install.cmake): /usr/bin/tmapgen and its trace libraries
# (/usr/lib/tmapgen/: injection and preload), /usr/bin/tmapd and its check worker, plus the deb component:
# the systemd unit (deploy/systemd/tmapd.service with the drop-in packaging/tmapd.service.d/debian.conf) and
# its configuration /etc/default/tmapd (a conffile). The headers,
# libraries and CMake package are not in it. Its dependencies are the library packages dpkg-shlibdeps
# finds for the binaries on the build host, so build it on the release it is for (Debian 12).
# scripts/dev/test-deb.sh installs it into a clean Debian 12 root and runs it.

if(TARGET tmapd)
  # The unit is deploy/systemd/tmapd.service as it is (its sandbox, checked by tests/deploy/); the
  # package's paths and its /etc/default/tmapd come in a drop-in.
  install(FILES deploy/systemd/tmapd.service DESTINATION lib/systemd/system COMPONENT deb EXCLUDE_FROM_ALL)
  install(FILES packaging/tmapd.service.d/debian.conf DESTINATION lib/systemd/system/tmapd.service.d
          COMPONENT deb EXCLUDE_FROM_ALL)
  # An absolute path: the package's /etc, never written by a plain `cmake --install` (EXCLUDE_FROM_ALL).
  install(FILES packaging/tmapd.default DESTINATION /etc/default RENAME tmapd COMPONENT deb EXCLUDE_FROM_ALL)
  # Debian policy 12.5: every package carries its copyright file (machine-readable format).
  install(FILES packaging/debian/copyright DESTINATION share/doc/tmapd COMPONENT deb EXCLUDE_FROM_ALL)
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tmapd)
set(CPACK_PACKAGE_VENDOR tmapgen)
set(CPACK_PACKAGE_CONTACT "tmapgen maintainers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "tmapgen service (tmapd) and command line: validates CUDA TMA tensor maps")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
"tmapd answers tmapgen's validation, descriptor, codegen and decode requests over gRPC
(with a bearer token, TLS beyond loopback), and tmapgen is the command line, local or
--remote. The package runs tmapd as a sandboxed systemd service (tmapd.service,
configured in /etc/default/tmapd) on loopback, without a GPU, by default.")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime service deb)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
  ${CMAKE_CURRENT_SOURCE_DIR}/packaging/debian/conffiles
  ${CMAKE_CURRENT_SOURCE_DIR}/packaging/debian/postinst
  ${CMAKE_CURRENT_SOURCE_DIR}/packaging/debian/prerm
  ${CMAKE_CURRENT_SOURCE_DIR}/packaging/debian/postrm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/package)
include(CPack)

# scripts/dev/test-deb.sh as a test, run only when asked: it needs root, debootstrap and the Debian mirror,
# and takes minutes (TMAPGEN_TEST_DEB=1 ctest -L deb).
if(TMAPGEN_TESTS AND TARGET tmapd)
  # The package's unit and drop-in as systemd loads them, without the package (tests/install/deb_unit_test.sh).
  add_test(NAME deb_unit COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/install/deb_unit_test.sh
           ${CMAKE_BINARY_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
  set_tests_properties(deb_unit PROPERTIES LABELS install TIMEOUT 120 SKIP_RETURN_CODE 77)
  add_test(NAME deb_package COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/scripts/dev/test-deb.sh --if-asked ${CMAKE_BINARY_DIR})
  set_tests_properties(deb_package PROPERTIES LABELS deb TIMEOUT 1800 SKIP_RETURN_CODE 77)
endif()
