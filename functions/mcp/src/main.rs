//! The dochiya MCP function: under the Lambda runtime it serves API Gateway
//! events; anywhere else it runs the local server. All logic is in `dochiya-app`.

fn main() {
    println!("dochiya: not assembled yet");
}
