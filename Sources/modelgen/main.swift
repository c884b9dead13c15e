print("modelgen: not built yet")
