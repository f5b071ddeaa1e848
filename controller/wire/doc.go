// Package wire holds the Java shapes of the RocketMQ 5 controller's requests
// and answers (docs/controller.md §1): the custom headers as Go structs that
// convert to and from remoting ext fields under Java's field names, and the
// fastjson bodies written byte for byte as a Java controller writes them.
// It does no I/O; the controller package and its handlers share it.
package wire
