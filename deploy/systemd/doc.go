// Package systemd holds the systemd units of this folder (gonamesrv.service
// for one NameServer, the template gonamesrv@.service for several,
// gonamesrv-broker@.service for the route-only broker);
// its test checks their hardening and stop settings and runs
// systemd-analyze verify on them where systemd is installed.
package systemd
