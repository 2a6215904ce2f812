# SPDX-License-Identifier: BSD-3-Clause
# Installs the build into a scratch prefix, then builds and runs a program against it three
# ways: pkg-config, find_package (shared) and find_package (static). Also checks that the
# shared library exports exactly the functions of its version map, under OPENGDA_0.1.
set(prefix ${WORK}/prefix)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD} --prefix ${prefix})

# pkg-config
set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig)
run(pkg-config --cflags --libs opengda)
string(STRIP "${out}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
run(cc -std=c11 -Wall -Werror ${SRC}/consumer.c ${flags} -Wl,-rpath,${prefix}/lib -o ${WORK}/consumer_pc)
run(${WORK}/consumer_pc)
if(NOT out MATCHES "consumer: OpenGDA [0-9]")
  message(FATAL_ERROR "pkg-config consumer printed: ${out}")
endif()

# Code written for NVIDIA's open release (tests/open_release), against the installed headers: as C11
# (dispatch macros) and as C++17 (overloads), both with warnings as errors.
set(opr ${SRC}/../open_release/open_put_bw)
run(cc -std=c11 -Wall -Wextra -Werror ${opr}.c ${flags} -libverbs -lpthread -Wl,-rpath,${prefix}/lib
    -o ${WORK}/open_put_bw_c)
find_program(CXX_COMPILER NAMES c++ g++)
if(CXX_COMPILER)
  run(${CXX_COMPILER} -std=c++17 -Wall -Wextra -Werror -I${SRC}/../open_release ${opr}.cpp ${flags} -libverbs
      -lpthread -Wl,-rpath,${prefix}/lib -o ${WORK}/open_put_bw_cpp)
endif()

# find_package
configure_file(${SRC}/CMakeLists.consumer.txt ${WORK}/consumer/CMakeLists.txt COPYONLY)
configure_file(${SRC}/consumer.c ${WORK}/consumer/consumer.c COPYONLY)
run(${CMAKE_COMMAND} -S ${WORK}/consumer -B ${WORK}/consumer/build -DCMAKE_PREFIX_PATH=${prefix})
run(${CMAKE_COMMAND} --build ${WORK}/consumer/build)
run(${WORK}/consumer/build/consumer_shared)
run(${WORK}/consumer/build/consumer_static)

# exported ABI == version map
file(GLOB so ${prefix}/lib/libdoca_gpunetio.so.*.*.*)
run(nm -D --defined-only ${so})
string(REGEX MATCHALL "[0-9a-f]+ T ([a-z_0-9]+@@OPENGDA_[0-9.]+)" exported "${out}")
string(REGEX MATCHALL " T [a-z_0-9]+" all_text "${out}")
file(STRINGS ${MAP} map_lines REGEX "^[ \t]+[a-z_0-9]+;$")
list(LENGTH map_lines n_map)
list(LENGTH all_text n_text)
if(NOT n_map EQUAL n_text)
  message(FATAL_ERROR "the library exports ${n_text} functions, the map lists ${n_map}:\n${out}")
endif()
foreach(line ${map_lines})
  string(STRIP "${line}" sym)
  string(REPLACE ";" "" sym "${sym}")
  if(NOT out MATCHES " T ${sym}@@OPENGDA_0\\.1")
    message(FATAL_ERROR "${sym} is not exported as ${sym}@@OPENGDA_0.1:\n${out}")
  endif()
endforeach()
execute_process(COMMAND readelf -d ${so} OUTPUT_VARIABLE dyn)
if(NOT dyn MATCHES "SONAME\\) +Library soname: \\[libdoca_gpunetio\\.so\\.0\\]")
  message(FATAL_ERROR "unexpected SONAME:\n${dyn}")
endif()
if(dyn MATCHES "libcuda|libibverbs|libmlx5|libgdrapi")
  message(FATAL_ERROR "the library must not link optional run-time dependencies:\n${dyn}")
endif()
