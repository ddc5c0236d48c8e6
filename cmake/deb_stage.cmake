# Run by cpack -G DEB (CPACK_PRE_BUILD_SCRIPTS) on the staged tree before
# the .deb is made: what Debian wants of a binary package and a plain
# `cmake --install` does not (a compressed man page, the copyright file,
# changelog.Debian.gz). gzip -9n: maximal, without name and time stamp,
# so that the package is reproducible (Debian Policy 12.3).
set(root "${CPACK_TEMPORARY_DIRECTORY}${CPACK_PACKAGING_INSTALL_PREFIX}")
set(doc "${root}/share/doc/xrun")

function(deb_gzip src dst)
  execute_process(COMMAND gzip -9nc "${src}" OUTPUT_FILE "${dst}"
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gzip -9n failed on '${src}': ${rc}")
  endif()
  file(CHMOD "${dst}" FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ
       WORLD_READ)
endfunction()

file(GLOB pages "${root}/share/man/man*/*.[1-9]")
foreach(p IN LISTS pages)
  deb_gzip("${p}" "${p}.gz")
  file(REMOVE "${p}")
endforeach()
file(MAKE_DIRECTORY "${doc}")
deb_gzip("${CPACK_XRUN_DEB_CHANGELOG}" "${doc}/changelog.Debian.gz")
file(COPY_FILE "${CPACK_XRUN_DEB_COPYRIGHT}" "${doc}/copyright")
file(CHMOD "${doc}/copyright" FILE_PERMISSIONS OWNER_READ OWNER_WRITE
     GROUP_READ WORLD_READ)
