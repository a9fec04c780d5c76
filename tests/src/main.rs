//! `pandemonium` with the test fixture game registered.

use clap::Parser;
use pandemonium_server::{Application, Config};

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let config = Config::parse();
    let node = config
        .node_name
        .clone()
        .unwrap_or_else(pandemonium_server::telemetry::host_name);
    pandemonium_server::telemetry::init(config.log_format, &node);
    let app = match Application::build_with_games(config, pandemonium_e2e::games()).await {
        Ok(app) => app,
        Err(error) => {
            eprintln!("could not start: {error}");
            return std::process::ExitCode::FAILURE;
        }
    };
    // Tests read the port from this line.
    println!("listening on port {}", app.port());
    app.run_until(pandemonium_server::shutdown_signal()).await;
    std::process::ExitCode::SUCCESS
}
