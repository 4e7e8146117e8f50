extern "C" {
    fn core_value() -> i32;
}

fn main() {
    println!("core_value() = {}", unsafe { core_value() });
}
