// Package kubernetes holds the NameServer's Kubernetes manifests (the YAML
// files of this folder); its test decodes them strictly into the Kubernetes
// API types and checks that they refer to each other and to the server's
// real config keys.
package kubernetes

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// ServiceMonitor mirrors the fields of the Prometheus operator's
// monitoring.coreos.com/v1 ServiceMonitor that our manifest uses. Its CRD is
// not in k8s.io/api, and the operator's own Go module would pull its whole
// client into this module; a strict decode into this struct still refuses
// any field the manifest misspells or adds beyond these.
type ServiceMonitor struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              ServiceMonitorSpec `json:"spec"`
}

// ServiceMonitorSpec is the part of the operator's spec we set.
type ServiceMonitorSpec struct {
	Selector  metav1.LabelSelector `json:"selector"`
	Endpoints []Endpoint           `json:"endpoints"`
}

// Endpoint is one scrape target of a ServiceMonitor: a Service port by name.
type Endpoint struct {
	Port     string `json:"port"`
	Path     string `json:"path,omitempty"`
	Interval string `json:"interval,omitempty"`
}
