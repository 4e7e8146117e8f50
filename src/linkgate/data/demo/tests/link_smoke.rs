extern "C" {
    fn core_value() -> i32;
}

#[test]
fn native_recipe_links() {
    assert_eq!(unsafe { core_value() }, 2 * 43 + 42);
}
