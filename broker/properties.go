package broker

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/javaprops"
)

// ReadProperties reads a Java properties file (broker.conf) with the rules of
// java.util.Properties.load, as the NameServer reads its own.
func ReadProperties(r io.Reader) (map[string]string, error) {
	text, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read properties: %w", err)
	}
	props, err := javaprops.Parse(text)
	if err != nil {
		return nil, fmt.Errorf("read properties: %w", err)
	}
	return props, nil
}

// LoadConfigFile reads broker.conf at path over the defaults in cfg,
// strictly (javaprops.FileLoader): a value that does not parse for its key
// is an error naming the file, the line, the key and the value; the keys
// this broker does not use are returned, each with the closest key it
// knows (cmd/broker warns of them and -p lists them).
func LoadConfigFile(path string, cfg *Config) ([]javaprops.UnknownKey, error) {
	setters := cfg.setters()
	keys := slices.Sorted(maps.Keys(setters))
	loader := javaprops.FileLoader{
		Known: func(key string) bool { _, ok := setters[key]; return ok },
		Set: func(key, value string) error {
			if err := setters[key](value); err != nil {
				return fmt.Errorf("%w: %w", ErrBrokerConfig, err)
			}
			return nil
		},
		Keys: keys,
	}
	_, unknown, err := loader.Load(path)
	if err != nil {
		return nil, err
	}
	return unknown, nil
}

// Apply sets the fields named by Java keys. Keys this broker does not use
// (message store settings and the like) are ignored, so a Java broker.conf
// works unchanged.
func (c *Config) Apply(props map[string]string) error {
	for key, value := range props {
		set, known := c.setters()[key]
		if !known {
			continue
		}
		if err := set(value); err != nil {
			return fmt.Errorf("%w: %s=%q: %w", ErrBrokerConfig, key, value, err)
		}
	}
	return nil
}

func (c *Config) setters() map[string]func(string) error {
	str := func(dst *string) func(string) error {
		return func(v string) error { *dst = v; return nil }
	}
	// Java's rule (true or false in any case), refusing any other word,
	// where Java reads it as false.
	boolean := func(dst *bool) func(string) error {
		return func(v string) error {
			if err := javaprops.ParseBool(v); err != nil {
				return err
			}
			*dst = strings.EqualFold(javaprops.TrimJava(v), "true")
			return nil
		}
	}
	integer := func(dst *int) func(string) error {
		return func(v string) error {
			n, err := strconv.Atoi(v)
			*dst = n
			return err
		}
	}
	int32Value := func(dst *int32) func(string) error {
		return func(v string) error {
			n, err := strconv.ParseInt(v, 10, 32)
			*dst = int32(n)
			return err
		}
	}
	int64Value := func(dst *int64) func(string) error {
		return func(v string) error {
			n, err := strconv.ParseInt(v, 10, 64)
			*dst = n
			return err
		}
	}
	millis := func(dst *time.Duration) func(string) error {
		return func(v string) error {
			n, err := strconv.ParseInt(v, 10, 64)
			*dst = time.Duration(n) * time.Millisecond
			return err
		}
	}
	return map[string]func(string) error{
		"brokerClusterName": str(&c.BrokerClusterName),
		"brokerName":        str(&c.BrokerName),
		"brokerId": func(v string) error {
			n, err := strconv.ParseInt(v, 10, 64)
			c.BrokerID = n
			return err
		},
		"namesrvAddr":                     str(&c.NamesrvAddr),
		"listenPort":                      integer(&c.ListenPort),
		"bindAddress":                     str(&c.BindAddress),
		"brokerIP1":                       str(&c.BrokerIP1),
		"brokerIP2":                       str(&c.BrokerIP2),
		"haListenPort":                    integer(&c.HaListenPort),
		"storePathRootDir":                str(&c.StorePathRootDir),
		"registerNameServerPeriod":        millis(&c.RegisterNameServerPeriod),
		"registerBrokerTimeoutMills":      millis(&c.RegisterBrokerTimeout),
		"forceRegister":                   boolean(&c.ForceRegister),
		"compressedRegister":              boolean(&c.CompressedRegister),
		"enableSplitRegistration":         boolean(&c.EnableSplitRegistration),
		"splitRegistrationSize":           integer(&c.SplitRegistrationSize),
		"brokerPermission":                int32Value(&c.BrokerPermission),
		"enableSlaveActingMaster":         boolean(&c.EnableSlaveActingMaster),
		"brokerHeartbeatInterval":         millis(&c.BrokerHeartbeatInterval),
		"brokerNotActiveTimeoutMillis":    millis(&c.BrokerNotActiveTimeout),
		"compatibleWithOldNameSrv":        boolean(&c.CompatibleWithOldNameSrv),
		"autoCreateTopicEnable":           boolean(&c.AutoCreateTopicEnable),
		"defaultTopicQueueNums":           int32Value(&c.DefaultTopicQueueNums),
		"clusterTopicEnable":              boolean(&c.ClusterTopicEnable),
		"brokerTopicEnable":               boolean(&c.BrokerTopicEnable),
		"traceTopicEnable":                boolean(&c.TraceTopicEnable),
		"msgTraceTopicName":               str(&c.MsgTraceTopicName),
		"reviveQueueNum":                  int32Value(&c.ReviveQueueNum),
		"slaveSyncPeriod":                 millis(&c.SlaveSyncPeriod),
		"allowShortRegisterPeriod":        boolean(&c.AllowShortRegisterPeriod),
		"enableControllerMode":            boolean(&c.EnableControllerMode),
		"controllerAddr":                  str(&c.Controller.ControllerAddr),
		"fetchControllerAddrByDnsLookup":  boolean(&c.Controller.FetchControllerAddrByDNSLookup),
		"syncBrokerMetadataPeriod":        millis(&c.Controller.SyncBrokerMetadataPeriod),
		"checkSyncStateSetPeriod":         millis(&c.Controller.CheckSyncStateSetPeriod),
		"syncControllerMetadataPeriod":    millis(&c.Controller.SyncControllerMetadataPeriod),
		"controllerHeartBeatTimeoutMills": millis(&c.Controller.ControllerHeartBeatTimeout),
		"brokerElectionPriority":          int32Value(&c.Controller.BrokerElectionPriority),
		"storePathBrokerIdentity":         str(&c.Controller.StorePathBrokerIdentity),
		"haMaxTimeSlaveNotCatchup":        millis(&c.Controller.HaMaxTimeSlaveNotCatchup),
		"haMaxGapNotInSync":               int64Value(&c.Controller.HaMaxGapNotInSync),
		"simulatedOffsetRate":             int64Value(&c.Controller.SimulatedOffsetRate),
		"accessKey":                       str(&c.AccessKey),
		"secretKey":                       str(&c.SecretKey),
		"useTLS":                          boolean(&c.UseTLS),
		"tls.client.trustCertPath":        str(&c.TLSTrustCertPath),
		"tls.client.certPath":             str(&c.TLSCertPath),
		"tls.client.keyPath":              str(&c.TLSKeyPath),
		"aclEnable":                       boolean(&c.AclEnable),
		"aclFile":                         str(&c.AclFile),
		"adminWhiteRemoteAddresses":       str(&c.AdminWhiteRemoteAddresses),
		"tls.server.mode":                 str(&c.TLSServerMode),
		"tls.server.certPath":             str(&c.TLSServerCertPath),
		"tls.server.keyPath":              str(&c.TLSServerKeyPath),
		"tls.server.trustCertPath":        str(&c.TLSServerTrustCertPath),
		"tls.server.need.client.auth":     str(&c.TLSServerNeedClientAuth),
		"tlsHandshakeMaxConcurrent":       integer(&c.TLSHandshakeMaxConcurrent),
		"tlsHandshakeTimeoutMillis":       int64Value(&c.TLSHandshakeTimeoutMillis),
	}
}

// Properties returns the effective settings under their keys, the inverse of
// Apply (durations in milliseconds).
func (c *Config) Properties() map[string]string {
	ms := func(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) }
	i32 := func(n int32) string { return strconv.FormatInt(int64(n), 10) }
	props := map[string]string{
		"brokerClusterName":            c.BrokerClusterName,
		"brokerName":                   c.BrokerName,
		"brokerId":                     strconv.FormatInt(c.BrokerID, 10),
		"namesrvAddr":                  c.NamesrvAddr,
		"listenPort":                   strconv.Itoa(c.ListenPort),
		"bindAddress":                  c.BindAddress,
		"brokerIP1":                    c.BrokerIP1,
		"brokerIP2":                    c.BrokerIP2,
		"haListenPort":                 strconv.Itoa(c.HaListenPort),
		"storePathRootDir":             c.StorePathRootDir,
		"registerNameServerPeriod":     ms(c.RegisterNameServerPeriod),
		"registerBrokerTimeoutMills":   ms(c.RegisterBrokerTimeout),
		"forceRegister":                strconv.FormatBool(c.ForceRegister),
		"compressedRegister":           strconv.FormatBool(c.CompressedRegister),
		"enableSplitRegistration":      strconv.FormatBool(c.EnableSplitRegistration),
		"splitRegistrationSize":        strconv.Itoa(c.SplitRegistrationSize),
		"brokerPermission":             i32(c.BrokerPermission),
		"enableSlaveActingMaster":      strconv.FormatBool(c.EnableSlaveActingMaster),
		"brokerHeartbeatInterval":      ms(c.BrokerHeartbeatInterval),
		"brokerNotActiveTimeoutMillis": ms(c.BrokerNotActiveTimeout),
		"compatibleWithOldNameSrv":     strconv.FormatBool(c.CompatibleWithOldNameSrv),
		"autoCreateTopicEnable":        strconv.FormatBool(c.AutoCreateTopicEnable),
		"defaultTopicQueueNums":        i32(c.DefaultTopicQueueNums),
		"clusterTopicEnable":           strconv.FormatBool(c.ClusterTopicEnable),
		"brokerTopicEnable":            strconv.FormatBool(c.BrokerTopicEnable),
		"traceTopicEnable":             strconv.FormatBool(c.TraceTopicEnable),
		"msgTraceTopicName":            c.MsgTraceTopicName,
		"reviveQueueNum":               i32(c.ReviveQueueNum),
		"slaveSyncPeriod":              ms(c.SlaveSyncPeriod),
		"allowShortRegisterPeriod":     strconv.FormatBool(c.AllowShortRegisterPeriod),
	}
	// The identity path is written as set: empty means Java's default,
	// <storePathRootDir>/brokerIdentity.
	rc := c.Controller
	for key, value := range map[string]string{
		"enableControllerMode":            strconv.FormatBool(c.EnableControllerMode),
		"controllerAddr":                  rc.ControllerAddr,
		"fetchControllerAddrByDnsLookup":  strconv.FormatBool(rc.FetchControllerAddrByDNSLookup),
		"syncBrokerMetadataPeriod":        ms(rc.SyncBrokerMetadataPeriod),
		"checkSyncStateSetPeriod":         ms(rc.CheckSyncStateSetPeriod),
		"syncControllerMetadataPeriod":    ms(rc.SyncControllerMetadataPeriod),
		"controllerHeartBeatTimeoutMills": ms(rc.ControllerHeartBeatTimeout),
		"brokerElectionPriority":          i32(rc.BrokerElectionPriority),
		"storePathBrokerIdentity":         rc.StorePathBrokerIdentity,
		"haMaxTimeSlaveNotCatchup":        ms(rc.HaMaxTimeSlaveNotCatchup),
		"haMaxGapNotInSync":               strconv.FormatInt(rc.HaMaxGapNotInSync, 10),
		"simulatedOffsetRate":             strconv.FormatInt(rc.SimulatedOffsetRate, 10),
	} {
		props[key] = value
	}
	c.Security.addProperties(props)
	c.Access.addProperties(props)
	return props
}

// ConfigLines returns the effective settings as sorted key=value lines.
func ConfigLines(c Config) []string {
	props := c.Properties()
	lines := make([]string, 0, len(props))
	for _, key := range slices.Sorted(maps.Keys(props)) {
		lines = append(lines, key+"="+props[key])
	}
	return lines
}
