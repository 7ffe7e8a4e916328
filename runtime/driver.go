package runtime

import (
	"fmt"
	"sync"
	"unsafe"
)

// driverAPI is the part of the CUDA driver API the package uses, bound to
// the versioned symbols that cuda.h aliases the plain names to.
type driverAPI struct {
	lib *library

	getErrorName, init, driverGetVersion                                      *libFunc
	deviceGetCount, deviceGet, deviceGetName, deviceGetAttribute, deviceTotal *libFunc
	primaryCtxRetain, primaryCtxRelease, ctxSetCurrent, ctxSynchronize        *libFunc
	memAlloc, memFree, memcpyHtoD, memcpyDtoH, memInfo                        *libFunc
	memcpyHtoDAsync, memsetD8Async, memsetD32Async                            *libFunc
	moduleLoadData, moduleUnload, moduleGetFunction, funcSetAttribute         *libFunc
	occupancyMaxBlocks                                                        *libFunc
	launchKernel                                                              *libFunc
	streamCreate, streamDestroy, streamSynchronize                            *libFunc
	eventCreate, eventDestroy, eventRecord, eventSynchronize, eventElapsed    *libFunc

	version int // cuDriverGetVersion, e.g. 13000
}

// The driver's library names, in the order tried.
var driverLibraries = []string{"libcuda.so.1", "libcuda.so"}

var (
	driverOnce sync.Once
	driver     *driverAPI
	driverErr  error
)

// loadDriver binds and initialises the CUDA driver, once per process.
func loadDriver() (*driverAPI, error) {
	driverOnce.Do(func() { driver, driverErr = bindDriver() })
	return driver, driverErr
}

func bindDriver() (*driverAPI, error) {
	lib, err := openLibrary("the CUDA driver (libcuda, installed with the NVIDIA driver)", driverLibraries)
	if err != nil {
		return nil, err
	}
	d := &driverAPI{lib: lib}
	err = lib.bindAll(map[**libFunc][]string{
		&d.getErrorName:       {"cuGetErrorName"},
		&d.init:               {"cuInit"},
		&d.driverGetVersion:   {"cuDriverGetVersion"},
		&d.deviceGetCount:     {"cuDeviceGetCount"},
		&d.deviceGet:          {"cuDeviceGet"},
		&d.deviceGetName:      {"cuDeviceGetName"},
		&d.deviceGetAttribute: {"cuDeviceGetAttribute"},
		&d.deviceTotal:        {"cuDeviceTotalMem_v2"},
		&d.primaryCtxRetain:   {"cuDevicePrimaryCtxRetain"},
		&d.primaryCtxRelease:  {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"},
		&d.ctxSetCurrent:      {"cuCtxSetCurrent"},
		&d.ctxSynchronize:     {"cuCtxSynchronize"},
		&d.memAlloc:           {"cuMemAlloc_v2"},
		&d.memFree:            {"cuMemFree_v2"},
		&d.memcpyHtoD:         {"cuMemcpyHtoD_v2"},
		&d.memcpyDtoH:         {"cuMemcpyDtoH_v2"},
		&d.memcpyHtoDAsync:    {"cuMemcpyHtoDAsync_v2"},
		&d.memsetD8Async:      {"cuMemsetD8Async"},
		&d.memsetD32Async:     {"cuMemsetD32Async"},
		&d.memInfo:            {"cuMemGetInfo_v2"},
		&d.moduleLoadData:     {"cuModuleLoadData"},
		&d.moduleUnload:       {"cuModuleUnload"},
		&d.moduleGetFunction:  {"cuModuleGetFunction"},
		&d.funcSetAttribute:   {"cuFuncSetAttribute"},
		&d.occupancyMaxBlocks: {"cuOccupancyMaxActiveBlocksPerMultiprocessor"},
		&d.launchKernel:       {"cuLaunchKernel"},
		&d.streamCreate:       {"cuStreamCreate"},
		&d.streamDestroy:      {"cuStreamDestroy_v2"},
		&d.streamSynchronize:  {"cuStreamSynchronize"},
		&d.eventCreate:        {"cuEventCreate"},
		&d.eventDestroy:       {"cuEventDestroy_v2"},
		&d.eventRecord:        {"cuEventRecord"},
		&d.eventSynchronize:   {"cuEventSynchronize"},
		&d.eventElapsed:       {"cuEventElapsedTime_v2", "cuEventElapsedTime"},
	})
	if err != nil {
		return nil, err
	}
	lib.errorName = d.errorName
	if err := d.init.call(0).err("initialising the CUDA driver (cuInit)"); err != nil {
		return nil, err
	}
	var v int32
	if err := d.driverGetVersion.call(uintptr(unsafe.Pointer(&v))).err("asking the driver's version"); err != nil {
		return nil, err
	}
	d.version = int(v)
	return d, nil
}

// errorName returns the name of a CUresult, e.g. "CUDA_ERROR_INVALID_VALUE".
func (d *driverAPI) errorName(code int32) string {
	var name *byte
	if d.getErrorName.call(uintptr(code), uintptr(unsafe.Pointer(&name))).code != 0 || name == nil {
		return fmt.Sprintf("CUresult(%d)", code)
	}
	return goString(name)
}

// The CUdevice_attribute values used.
const (
	attrMaxThreadsPerBlock       = 1
	attrMaxSharedPerBlock        = 8
	attrMultiprocessorCount      = 16
	attrComputeCapabilityMajor   = 75
	attrComputeCapabilityMinor   = 76
	attrMaxSharedPerBlockOptin   = 97
	funcAttrMaxDynamicSharedSize = 8 // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
	defaultSharedLimit           = 48 << 10
)
