/* The device's size and speed, for tuning (cuda_internal.h: device_info). */
#include "cuda/cuda_internal.h"

#include <atomic>

/* The device the tuning constants were fitted on (132 SMs at 1.98 GHz, 4.9 TB/s); a device
 * whose queries fail is taken to be it. */
static const device_info reference_device = {132, 1.98, 2.0 * 3.201e9 * 6144 / 8};

static device_info ask(int device)
{
    device_info d = reference_device;
    int sms = 0, clock = 0, mem_clock = 0, bus = 0;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) == cudaSuccess &&
        sms > 0)
        d.sms = sms;
    if (cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, device) == cudaSuccess && clock > 0)
        d.clock_ghz = clock * 1e-6;
    if (cudaDeviceGetAttribute(&mem_clock, cudaDevAttrMemoryClockRate, device) == cudaSuccess &&
        cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, device) == cudaSuccess &&
        mem_clock > 0 && bus > 0)
        d.bandwidth = 2.0 * mem_clock * 1e3 * bus / 8; /* double data rate */
    cudaGetLastError();
    return d;
}

const device_info &edgel_device_info(int device)
{
    enum { MAX_DEVICES = 64 };
    static device_info info[MAX_DEVICES];
    static std::atomic<int> known[MAX_DEVICES]; /* 0 not asked, 1 being asked, 2 known */
    if (device < 0 || device >= MAX_DEVICES)
        return reference_device;
    if (known[device].load(std::memory_order_acquire) == 2)
        return info[device];
    int idle = 0;
    if (known[device].compare_exchange_strong(idle, 1)) {
        info[device] = ask(device);
        known[device].store(2, std::memory_order_release);
    }
    while (known[device].load(std::memory_order_acquire) != 2) {
    } /* another thread asks: a few microseconds, once */
    return info[device];
}

const device_info &edgel_current_device_info()
{
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess)
        device = 0;
    return edgel_device_info(device);
}
