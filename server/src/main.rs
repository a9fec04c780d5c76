#[tokio::main]
async fn main() -> std::process::ExitCode {
    pandemonium_server::main_entry().await
}
