//! Assembles dochiya from configuration and adapts one handler to Lambda and to a local HTTP server.
