package nsysw

import (
	"fmt"
	"slices"
)

// writeMeta writes the report's metadata tables: export, session start,
// host, captured environment, GPUs and processes.
func (w *writer) writeMeta() error {
	steps := []func() error{w.exportMeta, w.session, w.host, w.captureEnv, w.gpus, w.processes}
	for _, f := range steps {
		if err := f(); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) exportMeta() error {
	rows := [][2]string{{"EXPORT_PRODUCT_NAME", "NVIDIA Nsight Systems"}, {"EXPORT_PRODUCT_VERSION", "2025.1.1.110"},
		{"EXPORT_SCHEMA_VERSION", "3.17.1"}, {"EXPORT_PARAM_TIME_NORMALIZE", "false"}, {"EXPORT_PARAM_TIME_SHIFT", "0"},
		{"EXPORT_PARAM_LAZY", "true"}, {"EXPORT_HOST", "tpptrace-samples"}}
	for _, r := range rows {
		if err := w.f.insert("META_DATA_EXPORT", "name, value", r[0], r[1]); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) session() error {
	clock := int64(0)
	if i := w.tr.FindRank(w.ranks[0]); i >= 0 {
		clock = w.tr.Ranks[i].ClockBase
	}
	return w.f.insert("TARGET_INFO_SESSION_START_TIME", "utcEpochNs, utcTime, localTime", clock+w.base, "", "")
}

func (w *writer) rank(r int32) (host string, gpu int32) {
	if i := w.tr.FindRank(r); i >= 0 {
		return w.tr.Ranks[i].Host, max(w.tr.Ranks[i].LocalGPU, 0)
	}
	return "", 0
}

func (w *writer) host() error {
	h, _ := w.rank(w.ranks[0])
	if err := w.f.insert("TARGET_INFO_SYSTEM_ENV", "globalVid, devStateName, name, nameEnum, value", vm, "", "Hostname", 619, h); err != nil {
		return err
	}
	return w.f.insert("TARGET_INFO_SYSTEM_ENV", "globalVid, devStateName, name, nameEnum, value", vm, "", "DeviceEnvironment", 610, "SECRET_TOKEN=do-not-copy;HOME=/root")
}

// captureEnv writes the launched process's environment: RANK and friends
// for a per-rank report (the launcher's for a per-node one), plus
// variables a reader must never copy.
func (w *writer) captureEnv() error {
	env := []string{`PATH="/usr/bin"`, `SECRET_TOKEN="do-not-copy"`, fmt.Sprintf(`WORLD_SIZE="%d"`, len(w.tr.Ranks))}
	if len(w.ranks) == 1 {
		_, gpu := w.rank(w.ranks[0])
		env = append(env, fmt.Sprintf(`RANK="%d"`, w.ranks[0]), fmt.Sprintf(`LOCAL_RANK="%d"`, gpu))
	}
	for _, v := range env {
		if err := w.f.insert("META_DATA_CAPTURE", "name, value", "PROCESS_0:ENVIRONMENT_VARIABLE", v); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) gpus() error {
	var devs []int32
	for _, r := range w.ranks {
		_, g := w.rank(r)
		if !slices.Contains(devs, g) {
			devs = append(devs, g)
		}
		if err := w.f.insert("TARGET_INFO_CUDA_DEVICE", "gpuId, cudaId, pid", g, g, w.pid(r)); err != nil {
			return err
		}
	}
	for _, d := range devs {
		err := w.f.insert("TARGET_INFO_GPU", "vmId, id, name, busLocation, uuid, cuDevice", vm, d, "NVIDIA H100 80GB HBM3",
			fmt.Sprintf("0000:%02X:00.0", 0x18+d), fmt.Sprintf("00000000-0000-0000-0000-%012d", d), d)
		if err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) processes() error {
	for _, r := range w.ranks {
		if err := w.f.insert("PROCESSES", "globalPid, pid, name", w.gpid(r), w.pid(r), "python3"); err != nil {
			return err
		}
	}
	return nil
}
