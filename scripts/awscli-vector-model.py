#!/usr/bin/env python3
"""Teach an AWS CLI whose botocore predates vector search the DynamoDB
vector-search API, without installing anything.

Usage: awscli-vector-model.py OUTDIR

Run it with the interpreter the `aws` command runs (its botocore is the one
to extend). It reads that botocore's DynamoDB service model and writes a
copy with the vector-search members added to
OUTDIR/dynamodb/2012-08-10/service-2.json, then prints OUTDIR; point
AWS_DATA_PATH at OUTDIR and botocore prefers that copy to its own. When the
installed model already has SearchVectors it writes nothing and prints
nothing.

Why: aws-cli 1.45 / botocore 1.43 (what this machine and CI have, PyPI not
reachable) knows no `aws dynamodb search-vectors` and no --vector-indexes.
The shapes below were written from the DynamoDB API Reference pages
(SearchVectors, VectorIndex, CreateVectorIndexAction,
VectorIndexDescription, SearchSchemaElement, VectorCapacity,
VectorAttributeDefinition); the documentation strings are our own short
summaries, for `aws ... help`.

Deliberately absent: range limits that the API Reference does not publish
for the wire (TopK has none in the shape; DynamoDB checks 1..100 on the
server). botocore would refuse an out-of-range value before sending it,
which would hide the server's ValidationException from the smoke checks.
"""

import gzip
import json
import os
import sys

import botocore

API_VERSION = "2012-08-10"


def model_dir():
    """The directory of the installed botocore's DynamoDB model."""
    return os.path.join(os.path.dirname(botocore.__file__), "data", "dynamodb", API_VERSION)


def read_model(directory):
    """Loads service-2.json, gzipped (botocore >= 1.32) or not."""
    plain = os.path.join(directory, "service-2.json")
    if os.path.exists(plain):
        with open(plain, encoding="utf-8") as f:
            return json.load(f)
    with gzip.open(plain + ".gz", "rt", encoding="utf-8") as f:
        return json.load(f)


def member(shape, doc):
    return {"shape": shape, "documentation": "<p>%s</p>" % doc}


def structure(doc, members, required=()):
    shape = {"type": "structure", "members": members, "documentation": "<p>%s</p>" % doc}
    if required:
        shape["required"] = list(required)
    return shape


def vector_index_members(name_doc):
    """The members VectorIndex and CreateVectorIndexAction share."""
    return {
        "IndexName": member("IndexName", name_doc),
        "VectorAttribute": member(
            "VectorAttributeDefinition",
            "The attribute that holds each item's vector, a list of numbers. "
            "Indexes on the same attribute must have the same dimension count."),
        "Dimensions": member("VectorDimensions", "How many numbers each vector has."),
        "DistanceFunction": member(
            "VectorDistanceFunction", "How two vectors are compared: COSINE, EUCLIDEAN or DOT_PRODUCT."),
        "Projection": member("Projection", "The attributes copied into the index, which a search can return."),
        "SearchSchema": member(
            "SearchSchema",
            "Attributes a search can filter on: at most one HASH (the index's partition key) "
            "and INLINE_FILTER attributes. Each must be in AttributeDefinitions."),
    }


VECTOR_INDEX_REQUIRED = ("IndexName", "VectorAttribute", "Dimensions", "DistanceFunction", "Projection")


def index_shapes():
    """Shapes that define, change and describe a vector index."""
    return {
        "VectorDistanceFunction": {"type": "string", "enum": ["COSINE", "DOT_PRODUCT", "EUCLIDEAN"]},
        "SearchSchemaElementType": {"type": "string", "enum": ["HASH", "INLINE_FILTER"]},
        "VectorDimensions": {"type": "long", "min": 1},
        "VectorAttributeName": {"type": "string", "max": 255, "min": 1},
        "VectorAttributeDefinition": structure(
            "The attribute of a vector index that holds the vectors.",
            {"AttributeName": member("VectorAttributeName", "The vector attribute's name.")},
            ["AttributeName"]),
        "SearchSchemaElement": structure(
            "One attribute of a vector index's search schema.",
            {"AttributeName": member("AttributeName", "The attribute's name."),
             "SearchSchemaElementType": member(
                 "SearchSchemaElementType",
                 "HASH: the index's partition key; every search must give its value with =. "
                 "INLINE_FILTER: stored in the index so that a search may filter on it.")},
            ["AttributeName", "SearchSchemaElementType"]),
        "SearchSchema": {"type": "list", "member": {"shape": "SearchSchemaElement"}, "min": 1},
        "VectorIndex": structure(
            "A vector index to create with the table.",
            vector_index_members("The index's name, unique within the table."),
            VECTOR_INDEX_REQUIRED),
        "VectorIndexList": {"type": "list", "member": {"shape": "VectorIndex"}},
        "CreateVectorIndexAction": structure(
            "A vector index to add to an existing table.",
            vector_index_members("The new index's name, unique within the table."),
            VECTOR_INDEX_REQUIRED),
        "DeleteVectorIndexAction": structure(
            "A vector index to remove from a table.",
            {"IndexName": member("IndexName", "The index to remove.")},
            ["IndexName"]),
        "VectorIndexUpdate": structure(
            "One vector index change: exactly one of Create or Delete.",
            {"Create": member("CreateVectorIndexAction", "Adds a vector index."),
             "Delete": member("DeleteVectorIndexAction", "Removes a vector index.")}),
        "VectorIndexUpdateList": {"type": "list", "member": {"shape": "VectorIndexUpdate"}},
        "VectorIndexDescription": structure("A vector index of a table, as it is now.", {
            "IndexName": member("IndexName", "The index's name."),
            "VectorAttribute": member("VectorAttributeDefinition", "The attribute that holds the vectors."),
            "Dimensions": member("VectorDimensions", "How many numbers each vector has."),
            "DistanceFunction": member("VectorDistanceFunction", "How vectors are compared."),
            "SearchSchema": member("SearchSchema", "The attributes a search can filter on."),
            "Projection": member("Projection", "The attributes copied into the index."),
            "IndexStatus": member("IndexStatus", "CREATING, ACTIVE or DELETING."),
            "Backfilling": member(
                "Backfilling",
                "True while an index added by UpdateTable loads the table's existing items; "
                "searches are refused until it is no longer true."),
            "IndexSizeBytes": member("LongObject", "The index's size in bytes."),
            "ItemCount": member("LongObject", "How many items the index holds."),
            "IndexArn": member("String", "The index's ARN."),
        }),
        "VectorIndexDescriptionList": {"type": "list", "member": {"shape": "VectorIndexDescription"}},
    }


def search_shapes():
    """SearchVectors' request and answer, and the capacity it reports."""
    return {
        "VectorRequestBytes": {"type": "double"},
        "VectorCapacity": structure("Vector search and vector write bytes an operation consumed.", {
            "VectorSearchRequestBytes": member("VectorRequestBytes", "Bytes consumed by a SearchVectors call."),
            "VectorWriteRequestBytes": member("VectorRequestBytes", "Bytes a write replicated into a vector index."),
        }),
        "VectorIndexesCapacityMap": {"type": "map", "key": {"shape": "IndexName"}, "value": {"shape": "VectorCapacity"}},
        "TopK": {"type": "integer"},
        "SearchConditionExpression": {"type": "string"},
        "SearchVectorsInput": structure("A SearchVectors request.", {
            "TableName": dict(member("TableArn", "The table's name or ARN."), contextParam={"name": "ResourceArn"}),
            "IndexName": member("IndexName", "The vector index to search; it must be ACTIVE and not backfilling."),
            "SearchVector": member(
                "AttributeValueList",
                "The vector to search for: one N value per dimension, each a 32-bit float."),
            "TopK": member("TopK", "How many of the nearest items to return, 1 to 100."),
            "SearchConditionExpression": member(
                "SearchConditionExpression",
                "Conditions on the index's SearchSchema attributes; required when it has a HASH attribute."),
            "ExpressionAttributeNames": member("ExpressionAttributeNameMap", "Substitutes for attribute names (#name)."),
            "ExpressionAttributeValues": member("ExpressionAttributeValueMap", "Values for the expression (:value)."),
            "ProjectionExpression": member("ProjectionExpression", "The projected attributes to return."),
            "ReturnConsumedCapacity": member("ReturnConsumedCapacity", "Whether to return ConsumedCapacity."),
        }, ["TableName", "IndexName", "SearchVector", "TopK"]),
        "SearchResultItem": structure("One item a search found, and its score.", {
            "Item": member("AttributeMap", "The item's projected attributes."),
            "Score": member("Double", "COSINE: 1 - cosine similarity (lower is closer); EUCLIDEAN: the distance "
                                      "(lower is closer); DOT_PRODUCT: the dot product (higher is closer)."),
        }),
        "Double": {"type": "double"},
        "SearchResults": {"type": "list", "member": {"shape": "SearchResultItem"}},
        "SearchVectorsOutput": structure("A SearchVectors answer.", {
            "SearchResults": member("SearchResults", "The nearest items, best first."),
            "ConsumedCapacity": member("VectorCapacity", "The vector search bytes the call consumed."),
        }),
    }


SEARCH_VECTORS = {
    "name": "SearchVectors",
    "http": {"method": "POST", "requestUri": "/"},
    "input": {"shape": "SearchVectorsInput"},
    "output": {"shape": "SearchVectorsOutput"},
    "errors": [{"shape": s} for s in
               ("InternalServerError", "RequestLimitExceeded", "ResourceNotFoundException", "ThrottlingException")],
    "documentation": "<p>Returns the items of a vector index nearest to a search vector, best first.</p>",
}

# (structure, new member, its shape, documentation)
NEW_MEMBERS = [
    ("CreateTableInput", "VectorIndexes", "VectorIndexList",
     "Vector indexes to create with the table (on-demand tables only, at most 5)."),
    ("UpdateTableInput", "VectorIndexUpdates", "VectorIndexUpdateList",
     "One vector index to add or remove."),
    ("TableDescription", "VectorIndexes", "VectorIndexDescriptionList", "The table's vector indexes."),
    ("ConsumedCapacity", "VectorIndexes", "VectorIndexesCapacityMap",
     "Vector write bytes per vector index the write changed."),
]


def add_shapes(shapes, new):
    """Adds new shapes; a name botocore already uses must mean the same."""
    for name, shape in new.items():
        old = shapes.get(name)
        if old is not None and old.get("type") != shape.get("type"):
            raise SystemExit("awscli-vector-model: botocore already has a %s shape of another type" % name)
        shapes.setdefault(name, shape)


def extend(model):
    shapes = model["shapes"]
    add_shapes(shapes, index_shapes())
    add_shapes(shapes, search_shapes())
    for struct, name, shape, doc in NEW_MEMBERS:
        shapes[struct]["members"].setdefault(name, member(shape, doc))
    model["operations"]["SearchVectors"] = SEARCH_VECTORS


def main(argv):
    if len(argv) != 2:
        raise SystemExit("usage: awscli-vector-model.py OUTDIR")
    model = read_model(model_dir())
    if "SearchVectors" in model["operations"]:
        return
    extend(model)
    target = os.path.join(argv[1], "dynamodb", API_VERSION)
    os.makedirs(target, exist_ok=True)
    with open(os.path.join(target, "service-2.json"), "w", encoding="utf-8") as f:
        json.dump(model, f)
    print(argv[1])


if __name__ == "__main__":
    main(sys.argv)
