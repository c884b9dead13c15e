import Foundation
import LazyModel
import Testing

@Suite struct JSONValueTests {
  @Test func decodesEveryKindAndEncodesItBack() throws {
    let text = #"{"a":[1,2.5,-3e-07,true,false,null,"x"],"b":{"c":"ü\"\\"},"d":[]}"#
    let value = try JSONValue(jsonString: text)
    #expect(
      value
        == .object([
          "a": .array([
            .number(1), .number(2.5), .number(-3e-7), .bool(true), .bool(false), .null,
            .string("x"),
          ]),
          "b": .object(["c": .string("ü\"\\")]),
          "d": .array([]),
        ]))
    #expect(try value.jsonString() == text)
    #expect(try jsonText(value) == text)
    #expect(try decodePlain(JSONValue.self, try jsonText(value)) == value)
  }

  @Test func literalsAndAccessors() throws {
    let value: JSONValue = [
      "name": "Ann", "age": 41, "tags": ["a", nil], "ok": true, "ratio": 0.5,
    ]
    #expect(value["name"]?.stringValue == "Ann")
    #expect(value["age"]?.numberValue == 41)
    #expect(value["ok"]?.boolValue == true)
    #expect(value["tags"]?[1]?.isNull == true)
    #expect(value["tags"]?[2] == nil)
    #expect(value["missing"] == nil)
    #expect(
      try value.jsonString() == #"{"age":41,"name":"Ann","ok":true,"ratio":0.5,"tags":["a",null]}"#)
  }

  @Test func scalarsAtTheTopLevel() throws {
    #expect(try JSONValue(jsonString: "null") == .null)
    #expect(try JSONValue(jsonString: "true") == .bool(true))
    #expect(try JSONValue(jsonString: "12") == .number(12))
    #expect(try JSONValue(jsonString: #""s""#) == .string("s"))
    #expect(throws: DecodingError.self) { try JSONValue(jsonString: "{nope") }
  }

  @Test func encodingAModelAndDecodingItBack() throws {
    let cart = Cart(id: "c", customerId: "u", total: 2.5)
    let value = try JSONValue(encoding: cart)
    #expect(value == ["id": "c", "customerId": "u", "total": 2.5])
    #expect(try value.decode(Cart.self).total == 2.5)
  }
}
