package main

// The broker-side commands (Java's names, options and output) and
// getKvConfig, appended to the command table in this order.
func init() {
	commands = append(commands, getBrokerConfigCommand, updateBrokerConfigCommand, brokerStatusCommand,
		haStatusCommand, exportConfigsCommand, getKvConfigCommand)
}
